//! Uniform blocks declared once in Rust with a layout a test compares to
//! their WGSL (`src/tests/shaders.rs`). A leaf: passes and effects both
//! declare their blocks with [`uniform!`].

/// A uniform block shared with WGSL: its WGSL struct name (the Rust
/// struct's, so the name is written once) and the byte offset of every
/// Rust field, so a test can compare both layouts.
pub trait Uniform: bytemuck::Pod {
    const WGSL_NAME: &'static str;
    #[cfg(test)]
    fn offsets() -> Vec<(&'static str, usize)>;
}

/// Declares a `#[repr(C)]` uniform struct and its [`Uniform`] layout.
macro_rules! uniform {
    ($(#[$meta:meta])* struct $name:ident { $($field:ident : $ty:ty),* $(,)? }) => {
        $(#[$meta])*
        #[repr(C)]
        #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
        pub struct $name { $(pub $field: $ty),* }
        impl $crate::uniform::Uniform for $name {
            const WGSL_NAME: &'static str = stringify!($name);
            #[cfg(test)]
            fn offsets() -> Vec<(&'static str, usize)> {
                vec![$((stringify!($field), std::mem::offset_of!($name, $field))),*]
            }
        }
    };
}
pub(crate) use uniform;
