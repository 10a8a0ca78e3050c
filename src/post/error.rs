//! The error of the Rust API ([`crate::PostChain`]): only what a wgpu
//! program can meet. The JavaScript renderer has its own errors (a
//! `name` and fields per kind, `src/error.rs`), which stay inside the crate.

use std::fmt;

pub use crate::error::{ArgumentError, ShaderError};
pub use crate::options::OptionError;

/// Why a [`crate::PostChain`] call was refused. Every refusal happens
/// before wgpu sees the call, so the program's encoder and device are left
/// as they were.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// An option is out of its range or does not go with another one:
    /// names the option's path (`bloom.intensity`), as in JavaScript.
    Option(OptionError),
    /// An argument cannot be used: names it (`output`, `output_format`,
    /// `hdr`, `bloom`, `width`, `height`) and says what is allowed.
    Argument(ArgumentError),
    /// An effect's WGSL did not compile: the line and column in the
    /// program's own WGSL, and the compiler's message.
    Shader(ShaderError),
    /// The chain's own frame broke a rule of WebGPU: a bug in afterglow,
    /// caught before it reached the GPU. The message names the pass and
    /// the texture.
    Internal(InternalError),
}

/// A broken rule of the chain's own frame (see [`Error::Internal`]).
#[derive(Debug, Clone, PartialEq)]
pub struct InternalError(pub(crate) crate::error::Error);

impl fmt::Display for InternalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for InternalError {}

impl Error {
    pub(crate) fn argument(argument: &str, message: impl Into<String>) -> Error {
        Error::Argument(ArgumentError {
            argument: argument.into(),
            message: message.into(),
        })
    }
}

impl From<crate::error::Error> for Error {
    fn from(e: crate::error::Error) -> Error {
        match e {
            crate::error::Error::Option(e) => Error::Option(e),
            crate::error::Error::Argument(e) => Error::Argument(e),
            crate::error::Error::Shader(e) => Error::Shader(e),
            other => Error::Internal(InternalError(other)),
        }
    }
}

impl From<ArgumentError> for Error {
    fn from(e: ArgumentError) -> Error {
        Error::Argument(e)
    }
}

impl From<OptionError> for Error {
    fn from(e: OptionError) -> Error {
        Error::Option(e)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Option(e) => write!(f, "afterglow: {e}"),
            Error::Argument(e) => write!(f, "afterglow: {e}"),
            Error::Shader(e) => write!(f, "afterglow: {e}"),
            Error::Internal(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Option(e) => Some(e),
            Error::Argument(e) => Some(e),
            Error::Shader(e) => Some(e),
            Error::Internal(e) => Some(e),
        }
    }
}
