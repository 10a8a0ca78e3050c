//! [`Lut`]'s constructors as the Rust API offers them: the table's rules
//! are `crate::lut`'s, which refuses with an `ArgumentError`; the Rust
//! API's [`Error`] is this facade's.

use super::Error;
use crate::lut::{parse_cube, Lut};

impl Lut {
    /// A table of `size` entries per side (2 to 65) from `size`³ colours,
    /// red varying fastest, then green, then blue, over the domain
    /// `[0, 1]`. Fails with [`Error::Argument`] naming `size` or `data`
    /// when the size is out of range, the count is not `size`³, or a value
    /// is not finite.
    pub fn new(size: u32, data: Vec<[f32; 3]>) -> Result<Lut, Error> {
        Ok(Lut::from_data(size, data)?)
    }

    /// Parses the text of a `.cube` file: `LUT_3D_SIZE` (2 to 65),
    /// optional `TITLE`, `DOMAIN_MIN` and `DOMAIN_MAX` (or Resolve's
    /// `LUT_3D_INPUT_RANGE`), `#` comments and blank lines, then `size`³
    /// lines of three numbers. Fails with [`Error::Argument`] naming
    /// `cube`, with the line and what is wrong with it.
    pub fn from_cube(text: &str) -> Result<Lut, Error> {
        Ok(parse_cube(text)?)
    }
}
