//! Typed, validated renderer options.
//!
//! Options arrive from JavaScript as one plain object. The web layer turns it
//! into a [`Value`] tree (no JS types here), and this module validates that
//! tree against the option schema ([`table::schema()`]): one table with every
//! option's path, allowed values, default, documentation and cost. Keeping
//! the rules in pure Rust means they are unit tested natively and every
//! error names the option and what is allowed.
//!
//! Layers, each using only the ones above it: [`value`] (the JS-shaped
//! tree), [`types`] (the typed options), [`schema`] (how an option is
//! described), [`table`] (the table itself), [`parse`] (parsing, defaults
//! and `options()` from the table).

pub mod parse;
pub mod schema;
pub mod table;
pub mod types;
pub mod value;

pub use parse::extended_needs_rgba16float;
#[cfg_attr(not(any(test, target_arch = "wasm32")), allow(unused_imports))]
pub use parse::OptionsValue;
pub use schema::{Allowed, AllowedValue, Effect, OptionError};
pub use table::{changes, reshapes};
// For the schema and property tests.
#[cfg(all(test, not(target_arch = "wasm32")))]
pub use {
    schema::{Kind, Literal, OptionSpec},
    table::{groups, schema},
};
// The typed options: every struct and enum of `types` (its
// `PREDICTABLE` is the crate's own).
pub use types::*;
pub use value::Value;

#[cfg(test)]
mod dynamic_range_tests;
#[cfg(test)]
mod tests;
