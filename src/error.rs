//! The error types of the crate, one per concern, each keeping the fields a
//! program needs to react to it (which option, which argument, which pass).
//! The web layer turns every variant into a JavaScript `Error` with a
//! `name` and those fields; its message is this type's `Display`.

use std::fmt;

pub use crate::graph::GraphError;
pub use crate::options::OptionError;

#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// An option was rejected; names the option path and what is allowed.
    Option(OptionError),
    /// A method argument (not an option) was rejected.
    Argument(ArgumentError),
    /// A user's scene shader did not compile.
    Shader(ShaderError),
    /// The frame's pass graph broke a rule (a bug in the crate, reported
    /// instead of handed to the GPU).
    Graph(GraphError),
    /// A texture descriptor broke a rule of `createTexture` (a bug in the
    /// crate or a size the caller asked for).
    TextureRule(TextureRuleError),
    /// No WebGPU, no adapter or device, a lost device, failed recovery.
    Device(DeviceError),
    /// The canvas could not be used (no WebGPU context, configure threw).
    Canvas(String),
    /// A method was called in a state that does not allow it.
    State(StateError),
    /// A frame could not be read back.
    Readback(String),
}

/// A rejected argument of a method (`resize(width, …)`, `setImage(source)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentError {
    /// The argument's name as documented (`width`, `source`, `wgsl`).
    pub argument: String,
    /// What is wrong, with what is allowed and what was given.
    pub message: String,
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "argument '{}' {}", self.argument, self.message)
    }
}

impl std::error::Error for ArgumentError {}

/// A compile error in a user's WGSL, at a position in the user's own code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShaderError {
    /// 1-based line in the given source (0 when the error has no position).
    pub line: u32,
    /// 1-based column (0 when the error has no position).
    pub column: u32,
    /// The first line of the compiler's message.
    pub message: String,
    /// The rest of the compiler's message (candidate overloads, notes),
    /// empty when it had one line.
    pub details: String,
}

impl ShaderError {
    /// An error whose compiler message is split into its first line and
    /// the rest, each cut to a readable length (some compilers quote the
    /// offending line whole, and a line of a megabyte is not a message).
    pub fn new(line: u32, column: u32, compiler_message: &str) -> ShaderError {
        let text = compiler_message.trim_ascii();
        let (first, rest) = match text.as_bytes().iter().position(|&b| b == b'\n') {
            Some(i) => (&text[..i], text[i + 1..].trim_ascii()),
            None => (text, ""),
        };
        // Some compilers (naga, in Firefox) quote the source around the
        // error, numbered as lines of the whole module rather than of the
        // user's code: those lines are left out.
        let mut kept = String::new();
        for l in rest.split('\n').filter(|l| !quotes_source(l)) {
            kept.push_str(l);
            kept.push('\n');
        }
        let rest = kept;
        ShaderError {
            line,
            column,
            message: clipped(first.trim_ascii_end(), 400),
            details: clipped(rest.trim_ascii(), 1500),
        }
    }
}

/// A line of a compiler's excerpt of the source: `  ┌─ wgsl:6:19`,
/// `  │`, `6 │   return …` (a margin of digits and spaces, then a box
/// drawing character).
fn quotes_source(line: &str) -> bool {
    let margin = line.trim_start_matches(|c: char| c == ' ' || c.is_ascii_digit());
    margin.starts_with(['\u{2502}', '\u{250c}', '\u{2514}', '\u{00b7}'])
}

/// `text`, cut after `max` bytes (at a character's end) with an ellipsis.
fn clipped(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.into();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

impl std::error::Error for ShaderError {}

impl fmt::Display for ShaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "WGSL, line {} column {}: {}",
                self.line, self.column, self.message
            )
        } else {
            write!(f, "WGSL: {}", self.message)
        }
    }
}

/// A texture descriptor that breaks a rule of `createTexture`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextureRuleError {
    /// The texture's label.
    pub texture: String,
    /// The rule, stated with the offending values.
    pub rule: String,
}

impl fmt::Display for TextureRuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "texture '{}': {}", self.texture, self.rule)
    }
}

/// What went wrong with the GPU device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceErrorKind {
    /// `navigator.gpu` is missing.
    NoWebGpu,
    /// No adapter was found.
    NoAdapter,
    /// The adapter refused to create a device.
    NoDevice,
    /// The device was lost.
    Lost,
    /// A lost device could not be replaced.
    RecoveryFailed,
    /// The caller's device (`{ device }`) was lost; afterglow does not
    /// replace a device it did not create.
    SharedLost,
    /// The device could not allocate the frame's targets at the size asked
    /// for (WebGPU says so only after the textures were created).
    OutOfMemory,
}

impl DeviceErrorKind {
    /// The spelling in JavaScript (`error.reason`).
    pub fn as_str(self) -> &'static str {
        match self {
            DeviceErrorKind::NoWebGpu => "no-webgpu",
            DeviceErrorKind::NoAdapter => "no-adapter",
            DeviceErrorKind::NoDevice => "no-device",
            DeviceErrorKind::Lost => "lost",
            DeviceErrorKind::RecoveryFailed => "recovery-failed",
            DeviceErrorKind::SharedLost => "shared-device-lost",
            DeviceErrorKind::OutOfMemory => "out-of-memory",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceError {
    pub kind: DeviceErrorKind,
    pub message: String,
}

impl fmt::Display for DeviceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            DeviceErrorKind::NoWebGpu | DeviceErrorKind::NoAdapter | DeviceErrorKind::NoDevice => {
                write!(f, "WebGPU is not available: {}", self.message)
            }
            DeviceErrorKind::Lost => write!(f, "the GPU device was lost: {}", self.message),
            DeviceErrorKind::RecoveryFailed => write!(
                f,
                "the GPU device was lost and could not be replaced: {}",
                self.message
            ),
            DeviceErrorKind::SharedLost => write!(
                f,
                "the GPUDevice given to Renderer.create(canvas, {{ device }}) was lost ({}); \
                 afterglow does not replace a device it did not create: destroy() this \
                 renderer and create a new one with your new device",
                self.message
            ),
            DeviceErrorKind::OutOfMemory => {
                write!(f, "the GPU ran out of memory: {}", self.message)
            }
        }
    }
}

/// Why a method could not run now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateErrorKind {
    /// Called after `destroy()`.
    Destroyed,
    /// Called while another call on the renderer was running.
    Busy,
    /// An asynchronous call was overtaken by a later change.
    Superseded,
    /// A call panicked (a bug in afterglow): the module's state cannot be
    /// trusted any more, so every renderer refuses further calls.
    Broken,
    /// `Renderer.create` before `init()` had finished: raised by the npm
    /// package's entry point, before the module can answer.
    NotInitialized,
}

impl StateErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            StateErrorKind::Destroyed => "destroyed",
            StateErrorKind::Busy => "busy",
            StateErrorKind::Superseded => "superseded",
            StateErrorKind::Broken => "broken",
            StateErrorKind::NotInitialized => "not-initialized",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateError {
    pub kind: StateErrorKind,
    /// The JS method that was called.
    pub method: &'static str,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let method = self.method;
        match self.kind {
            StateErrorKind::Destroyed => write!(
                f,
                "{method}() was called after destroy(); create a new Renderer"
            ),
            StateErrorKind::Busy => write!(
                f,
                "{method}() was called while another call on this renderer was running"
            ),
            StateErrorKind::Superseded => write!(
                f,
                "{method}(): the content changed (another setSceneShader, setImage, \
                 useDemoScene, or a device loss) while this call was waiting; it was not applied"
            ),
            StateErrorKind::Broken => write!(
                f,
                "{method}(): an earlier call failed inside afterglow (a bug, reported in the \
                 console as a panic), so its state cannot be trusted; reload the page"
            ),
            StateErrorKind::NotInitialized => write!(
                f,
                "Renderer.{method}() was called before init(); write `await init();` before it"
            ),
        }
    }
}

impl Error {
    /// The JavaScript `name` of this error.
    pub fn name(&self) -> &'static str {
        match self {
            Error::Option(_) => "OptionError",
            Error::Argument(_) => "ArgumentError",
            Error::Shader(_) => "ShaderError",
            Error::Graph(_) => "GraphError",
            Error::TextureRule(_) => "TextureRuleError",
            Error::Device(_) => "DeviceError",
            Error::Canvas(_) => "CanvasError",
            Error::State(_) => "StateError",
            Error::Readback(_) => "ReadbackError",
        }
    }

    pub fn argument(argument: &str, message: impl Into<String>) -> Error {
        Error::Argument(ArgumentError {
            argument: argument.into(),
            message: message.into(),
        })
    }

    pub fn device(kind: DeviceErrorKind, message: impl Into<String>) -> Error {
        Error::Device(DeviceError {
            kind,
            message: message.into(),
        })
    }

    pub fn destroyed(method: &'static str) -> Error {
        Error::State(StateError {
            kind: StateErrorKind::Destroyed,
            method,
        })
    }

    pub fn broken(method: &'static str) -> Error {
        Error::State(StateError {
            kind: StateErrorKind::Broken,
            method,
        })
    }

    pub fn busy(method: &'static str) -> Error {
        Error::State(StateError {
            kind: StateErrorKind::Busy,
            method,
        })
    }

    pub fn superseded(method: &'static str) -> Error {
        Error::State(StateError {
            kind: StateErrorKind::Superseded,
            method,
        })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Option(e) => write!(f, "afterglow: {e}"),
            Error::Argument(e) => write!(f, "afterglow: {e}"),
            Error::Shader(e) => write!(f, "afterglow: {e}"),
            Error::Graph(e) => write!(f, "afterglow: frame graph: {e}"),
            Error::TextureRule(e) => write!(f, "afterglow: {e}"),
            Error::Device(e) => write!(f, "afterglow: {e}"),
            Error::Canvas(m) => write!(f, "afterglow: canvas: {m}"),
            Error::State(e) => write!(f, "afterglow: {e}"),
            Error::Readback(m) => write!(f, "afterglow: reading the frame back failed: {m}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<OptionError> for Error {
    fn from(e: OptionError) -> Self {
        Error::Option(e)
    }
}

impl From<ArgumentError> for Error {
    fn from(e: ArgumentError) -> Self {
        Error::Argument(e)
    }
}

impl From<GraphError> for Error {
    fn from(e: GraphError) -> Self {
        Error::Graph(e)
    }
}

impl From<TextureRuleError> for Error {
    fn from(e: TextureRuleError) -> Self {
        Error::TextureRule(e)
    }
}

impl From<ShaderError> for Error {
    fn from(e: ShaderError) -> Self {
        Error::Shader(e)
    }
}

#[cfg(test)]
mod shader_error_tests {
    use super::ShaderError;

    #[test]
    fn a_huge_compiler_message_is_cut_to_a_readable_length() {
        let line = "\u{e9}".repeat(300_000);
        let e = ShaderError::new(1, 1, &format!("error: {line}\n{line}"));
        assert!(
            e.message.len() <= 403 && e.message.ends_with('\u{2026}'),
            "{}",
            e.message.len()
        );
        assert!(
            e.details.len() <= 1503 && e.details.ends_with('\u{2026}'),
            "{}",
            e.details.len()
        );
        let short = ShaderError::new(2, 3, "unknown identifier: `colour`\n  note");
        assert_eq!(
            (short.message.as_str(), short.details.as_str()),
            ("unknown identifier: `colour`", "note")
        );
        let quoted = ShaderError::new(
            3,
            19,
            "no definition in scope for identifier: `b`\n  \u{250c}\u{2500} wgsl:6:19\n  \u{2502}\n6 \u{2502}   return vec4f(a, b);\n  \u{2502}     ^ unknown identifier\n  = note: a note",
        );
        assert_eq!(
            quoted.details, "= note: a note",
            "the excerpt numbered as the module's lines is left out"
        );
        assert_eq!(
            short.to_string(),
            "WGSL, line 2 column 3: unknown identifier: `colour`"
        );
    }
}
