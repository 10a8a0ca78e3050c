//! The one error type of the crate. The web layer turns it into a JS `Error`
//! whose message is this type's `Display`.

use std::fmt;

use crate::options::OptionError;

#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// An option, argument or size was rejected; names the field.
    Option(OptionError),
    /// No WebGPU adapter or device could be had.
    NoGpu(String),
    /// The canvas could not be used (not a canvas, no WebGPU context, configure threw).
    Canvas(String),
    /// The GPU device was lost; the renderer must be created again.
    DeviceLost(String),
    /// A method was called after `destroy()`.
    Destroyed(&'static str),
    /// A method was called while another call on the renderer was running.
    Busy(&'static str),
    /// An asynchronous call was overtaken by a later change.
    Superseded(&'static str),
    /// A frame could not be read back.
    Readback(String),
    /// A rule the crate checks on its own GPU objects failed (a bug in the
    /// crate, reported instead of handed to the GPU).
    Internal(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Option(e) => write!(f, "afterglow: {e}"),
            Error::NoGpu(m) => write!(f, "afterglow: WebGPU is not available: {m}"),
            Error::Canvas(m) => write!(f, "afterglow: canvas: {m}"),
            Error::DeviceLost(m) => write!(f, "afterglow: the GPU device was lost: {m}"),
            Error::Destroyed(method) => write!(
                f,
                "afterglow: {method}() was called after destroy(); create a new Renderer"
            ),
            Error::Busy(method) => write!(
                f,
                "afterglow: {method}() was called while another call on this renderer was running"
            ),
            Error::Superseded(method) => write!(
                f,
                "afterglow: {method}(): the content changed (another setSceneShader, setImage, \
                 useDemoScene, or a device loss) while this call was waiting; it was not applied"
            ),
            Error::Readback(m) => write!(f, "afterglow: reading the frame back failed: {m}"),
            Error::Internal(m) => write!(f, "afterglow: internal error: {m}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<OptionError> for Error {
    fn from(e: OptionError) -> Self {
        Error::Option(e)
    }
}
