//! 3D colour lookup tables: the `.cube` text of photo and video tools
//! (Adobe's format, as Resolve writes it), applied after the curve in
//! display space (sRGB-encoded values) by the composite pass, with
//! tetrahedral interpolation.

use crate::error::ArgumentError;
use crate::options::value::decimal;

/// Sizes a table may have per side: 2 to 65 entries (65³ is the largest
/// that grading tools export).
pub const SIZES: std::ops::RangeInclusive<u32> = 2..=65;

/// A 3D lookup table: `size`³ output colours, red varying fastest, for
/// inputs spread evenly over the domain (`[0, 1]` per channel unless the
/// file says otherwise). Made from `.cube` text ([`Lut::from_cube`]) or
/// from data ([`Lut::new`]), constructors the Rust API defines
/// (`crate::post`); given to [`crate::PostChain::set_lut`].
#[derive(Clone, Debug, PartialEq)]
pub struct Lut {
    size: u32,
    data: Vec<[f32; 3]>,
    domain_min: [f32; 3],
    domain_max: [f32; 3],
    title: Option<String>,
}

impl Lut {
    /// A table of `size` entries per side from `size`³ colours over the
    /// domain `[0, 1]`, checked (the Rust API's [`Lut::new`], `crate::post`,
    /// turns the error into its own).
    pub(crate) fn from_data(size: u32, data: Vec<[f32; 3]>) -> Result<Lut, ArgumentError> {
        let lut = Lut {
            size,
            data,
            domain_min: [0.0; 3],
            domain_max: [1.0; 3],
            title: None,
        };
        lut.check("size", "data")?;
        Ok(lut)
    }

    /// Entries per side.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The `TITLE` of a `.cube` file, if it had one.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The inputs the table spans, per channel: `(min, max)`.
    pub fn domain(&self) -> ([f32; 3], [f32; 3]) {
        (self.domain_min, self.domain_max)
    }

    /// The colours, red varying fastest.
    pub fn data(&self) -> &[[f32; 3]] {
        &self.data
    }

    /// The table applied to one display-encoded colour on the CPU, with
    /// the interpolation the GPU uses (tetrahedral, inputs clamped to the
    /// domain): a model for tests and for tools that preview a grade.
    pub fn apply(&self, rgb: [f32; 3]) -> [f32; 3] {
        let n = self.size as usize;
        let last = (n - 1) as f32;
        let p: [f32; 3] = std::array::from_fn(|i| {
            let t = (rgb[i] - self.domain_min[i]) / (self.domain_max[i] - self.domain_min[i]);
            t.clamp(0.0, 1.0) * last
        });
        // The cell: its lower corner, at most one before the last entry.
        let base: [usize; 3] = std::array::from_fn(|i| (p[i].floor() as usize).min(n - 2));
        let f: [f32; 3] = std::array::from_fn(|i| p[i] - base[i] as f32);
        let at = |d: [usize; 3]| {
            let (r, g, b) = (base[0] + d[0], base[1] + d[1], base[2] + d[2]);
            self.data[r + n * (g + n * b)]
        };
        // The tetrahedron of the cell that holds f: from the corner 000
        // along the axis f is largest on, then the next, to 111.
        let mut order = [0usize, 1, 2];
        order.sort_by(|&a, &b| f[b].total_cmp(&f[a]));
        let mut first = [0usize; 3];
        first[order[0]] = 1;
        let mut second = first;
        second[order[1]] = 1;
        let (hi, mid, lo) = (f[order[0]], f[order[1]], f[order[2]]);
        let corners = [
            (1.0 - hi, at([0, 0, 0])),
            (hi - mid, at(first)),
            (mid - lo, at(second)),
            (lo, at([1, 1, 1])),
        ];
        std::array::from_fn(|c| corners.iter().map(|(w, v)| w * v[c]).sum())
    }

    /// The table's size, count, values and domain, with `size_name` and
    /// `data_name` the names the caller knows them by.
    fn check(&self, size_name: &str, data_name: &str) -> Result<(), ArgumentError> {
        let fail = |name: &str, message: String| ArgumentError {
            argument: name.into(),
            message,
        };
        if !SIZES.contains(&self.size) {
            return Err(fail(
                size_name,
                format!(
                    "is {}; a 3D table has {} to {} entries per side",
                    self.size,
                    SIZES.start(),
                    SIZES.end()
                ),
            ));
        }
        let want = (self.size as usize).pow(3);
        if self.data.len() != want {
            return Err(fail(
                data_name,
                format!(
                    "has {} colours; a table of size {} has {want} (size³)",
                    self.data.len(),
                    self.size
                ),
            ));
        }
        if let Some(i) = self
            .data
            .iter()
            .position(|c| c.iter().any(|v| !v.is_finite()))
        {
            return Err(fail(
                data_name,
                format!("colour {i} is not finite; every value must be"),
            ));
        }
        Ok(())
    }
}

/// What the parser has read of the header.
struct Header {
    size: Option<(u32, usize)>,
    min: [f32; 3],
    max: [f32; 3],
    title: Option<String>,
    /// The last line that set the domain.
    domain_line: usize,
}

pub(crate) fn parse_cube(text: &str) -> Result<Lut, ArgumentError> {
    let fail = |line: usize, message: String| ArgumentError {
        argument: "cube".into(),
        message: format!("line {line}: {message}"),
    };
    let mut header = Header {
        size: None,
        min: [0.0; 3],
        max: [1.0; 3],
        title: None,
        domain_line: 0,
    };
    let mut data: Vec<[f32; 3]> = Vec::new();
    let mut last_line = 0;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        last_line = line;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let first = content.split_whitespace().next().unwrap_or("");
        // Keywords are upper case (LUT_3D_SIZE, and others this parser does
        // not know, such as LUT_1D_INPUT_RANGE); after the size, any other
        // line is a row of data, however wrong ('nan 0 0' is refused as a
        // number below).
        let keyword_like = first
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
        let row = !keyword_like && header.size.is_some();
        if first.starts_with(|c: char| c.is_ascii_alphabetic()) && !row {
            if !data.is_empty() {
                return Err(fail(
                    line,
                    format!("'{first}' after the table's data; keywords come before it"),
                ));
            }
            keyword(&mut header, first, content, line).map_err(|m| fail(line, m))?;
            continue;
        }
        let Some((size, _)) = header.size else {
            return Err(fail(
                line,
                "data before LUT_3D_SIZE; a 3D table states its size first".into(),
            ));
        };
        if data.len() == (size as usize).pow(3) {
            return Err(fail(
                line,
                format!(
                    "more than {} colours; LUT_3D_SIZE {size} has {} (size³)",
                    (size as usize).pow(3),
                    (size as usize).pow(3)
                ),
            ));
        }
        data.push(data_row(content).map_err(|m| fail(line, m))?);
    }
    let Some((size, size_line)) = header.size else {
        return Err(fail(
            last_line.max(1),
            "no LUT_3D_SIZE: this is not the text of a 3D .cube file".into(),
        ));
    };
    if let Some(i) = (0..3).find(|&i| header.max[i] <= header.min[i]) {
        return Err(fail(
            header.domain_line,
            format!(
                "the domain's max must be above its min in every channel (channel {i}: {} is not above {})",
                decimal(f64::from(header.max[i])),
                decimal(f64::from(header.min[i]))
            ),
        ));
    }
    let want = (size as usize).pow(3);
    if data.len() != want {
        return Err(fail(
            last_line,
            format!(
                "the file ends after {} colour{}; LUT_3D_SIZE {size} (line {size_line}) needs {want}",
                data.len(),
                if data.len() == 1 { "" } else { "s" }
            ),
        ));
    }
    Ok(Lut {
        size,
        data,
        domain_min: header.min,
        domain_max: header.max,
        title: header.title,
    })
}

/// One row of the table's data: three finite numbers, red green blue;
/// the error is the message.
fn data_row(content: &str) -> Result<[f32; 3], String> {
    let values: Vec<&str> = content.split_whitespace().collect();
    let [r, g, b] = values.as_slice() else {
        return Err(format!("'{content}' is not three numbers (red green blue)"));
    };
    Ok([number(r)?, number(g)?, number(b)?])
}

/// Reads one keyword line into `header`; the error is the message.
fn keyword(header: &mut Header, word: &str, content: &str, line: usize) -> Result<(), String> {
    let rest: Vec<&str> = content.split_whitespace().skip(1).collect();
    match word {
        "TITLE" => {
            let title = content["TITLE".len()..].trim().trim_matches('"');
            header.title = Some(title.to_string());
        }
        "LUT_3D_SIZE" => {
            if header.size.is_some() {
                return Err("a second LUT_3D_SIZE".into());
            }
            let size = match rest.as_slice() {
                [one] => one.parse::<u32>().ok(),
                _ => None,
            };
            match size {
                Some(s) if SIZES.contains(&s) => header.size = Some((s, line)),
                _ => {
                    return Err(format!(
                        "LUT_3D_SIZE is '{}'; it must be a whole number from {} to {}",
                        rest.join(" "),
                        SIZES.start(),
                        SIZES.end()
                    ))
                }
            }
        }
        "LUT_1D_SIZE" => {
            return Err(
                "a 1D table (LUT_1D_SIZE); only 3D tables (LUT_3D_SIZE) are supported".into(),
            )
        }
        "DOMAIN_MIN" | "DOMAIN_MAX" => {
            let [r, g, b] = rest.as_slice() else {
                return Err(format!("{word} needs three numbers (red green blue)"));
            };
            let v = [number(r)?, number(g)?, number(b)?];
            if word == "DOMAIN_MIN" {
                header.min = v;
            } else {
                header.max = v;
            }
            header.domain_line = line;
        }
        "LUT_3D_INPUT_RANGE" => {
            let [lo, hi] = rest.as_slice() else {
                return Err("LUT_3D_INPUT_RANGE needs two numbers (min max)".into());
            };
            let (lo, hi) = (number(lo)?, number(hi)?);
            if hi <= lo {
                return Err(format!(
                    "LUT_3D_INPUT_RANGE's max ({}) must be above its min ({})",
                    decimal(f64::from(hi)),
                    decimal(f64::from(lo))
                ));
            }
            header.min = [lo; 3];
            header.max = [hi; 3];
            header.domain_line = line;
        }
        other => return Err(format!("unknown keyword '{other}'")),
    }
    Ok(())
}

/// A finite number of the table, or the message saying what it is.
fn number(word: &str) -> Result<f32, String> {
    decimal_number(word).ok_or_else(|| format!("'{word}' is not a finite number"))
}

/// A decimal number as `.cube` files write them: an optional sign,
/// digits with an optional point, an optional exponent (`-0.5`, `1.`,
/// `.25`, `2.5e-3`). Read here rather than by `str::parse`, whose float
/// parser would add about ten kilobytes to the wasm for this one use; the
/// result is within an f64 rounding or two of the exact value, far
/// below the f32 it becomes.
fn decimal_number(word: &str) -> Option<f32> {
    let bytes = word.as_bytes();
    let mut i = 0;
    let negative = match bytes.first() {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    // Up to 19 significant digits in the mantissa; later ones only move
    // the exponent (they are below any f32's precision).
    let (mut mantissa, mut digits, mut exponent, mut seen) = (0u64, 0u32, 0i32, false);
    let mut point = false;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'0'..=b'9' => {
                seen = true;
                let d = u64::from(b - b'0');
                if mantissa == 0 && d == 0 {
                    // A leading zero: no significant digit.
                    exponent -= i32::from(point);
                } else if digits < 19 {
                    mantissa = mantissa * 10 + d;
                    digits += 1;
                    exponent -= i32::from(point);
                } else {
                    exponent += i32::from(!point);
                }
            }
            b'.' if !point => point = true,
            _ => break,
        }
        i += 1;
    }
    if !seen {
        return None;
    }
    if let Some(b'e' | b'E') = bytes.get(i) {
        i += 1;
        let sign = match bytes.get(i) {
            Some(b'-') => {
                i += 1;
                -1
            }
            Some(b'+') => {
                i += 1;
                1
            }
            _ => 1,
        };
        let start = i;
        let mut e = 0i32;
        while let Some(&b) = bytes.get(i).filter(|b| b.is_ascii_digit()) {
            e = e.saturating_mul(10).saturating_add(i32::from(b - b'0'));
            i += 1;
        }
        if i == start {
            return None;
        }
        exponent = exponent.saturating_add(sign * e);
    }
    if i != bytes.len() {
        return None;
    }
    let magnitude = if mantissa == 0 {
        0.0
    } else if exponent < 0 {
        mantissa as f64 / 10f64.powi(-exponent)
    } else {
        mantissa as f64 * 10f64.powi(exponent)
    };
    let value = if negative { -magnitude } else { magnitude } as f32;
    value.is_finite().then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The identity table of `size` as `.cube` text.
    fn identity_cube(size: u32) -> String {
        let mut text = format!("# made by the test\nTITLE \"identity\"\nLUT_3D_SIZE {size}\n\n");
        let last = (size - 1) as f32;
        for b in 0..size {
            for g in 0..size {
                for r in 0..size {
                    text += &format!(
                        "{} {} {}\n",
                        r as f32 / last,
                        g as f32 / last,
                        b as f32 / last
                    );
                }
            }
        }
        text
    }

    fn message(text: &str) -> String {
        match Lut::from_cube(text) {
            Err(crate::Error::Argument(e)) => {
                assert_eq!(e.argument, "cube");
                e.message
            }
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn an_identity_table_of_any_size_leaves_colours() {
        for size in [2, 3, 17, 33] {
            let lut = Lut::from_cube(&identity_cube(size)).unwrap();
            assert_eq!(lut.size(), size);
            assert_eq!(lut.title(), Some("identity"));
            for c in [
                [0.0, 0.0, 0.0],
                [0.3, 0.7, 0.1],
                [1.0, 0.5, 0.25],
                [0.9, 0.9, 0.95],
            ] {
                let out = lut.apply(c);
                for i in 0..3 {
                    assert!(
                        (out[i] - c[i]).abs() < 1e-5,
                        "size {size}: {c:?} gave {out:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn tetrahedral_interpolation_is_exact_on_the_diagonal_and_linear_along_an_edge() {
        // A table whose red output is the input's largest channel: not
        // linear, so trilinear and tetrahedral differ inside a cell.
        let size = 2;
        let data = (0..8)
            .map(|i| {
                let (r, g, b) = ((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32);
                [r.max(g).max(b), g, b]
            })
            .collect();
        let lut = Lut::new(size, data).unwrap();
        // On the grey diagonal, tetrahedral interpolation is the grey.
        assert!((lut.apply([0.4, 0.4, 0.4])[0] - 0.4).abs() < 1e-6);
        // In the tetrahedron r > g > b: 1 - r of 000, r - g of 100, g - b
        // of 110, b of 111; max channel is 1 at all but 000, so r.
        assert!((lut.apply([0.7, 0.2, 0.1])[0] - 0.7).abs() < 1e-6);
        // Trilinear would give 1 - (1-r)(1-g)(1-b) = 0.784 there.
    }

    #[test]
    fn the_domain_maps_inputs_and_clamps_outside() {
        let text = identity_cube(2).replace(
            "LUT_3D_SIZE 2",
            "LUT_3D_SIZE 2\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 2 2 2",
        );
        let lut = Lut::from_cube(&text).unwrap();
        assert!((lut.apply([1.0, 0.5, 2.0])[0] - 0.5).abs() < 1e-6);
        assert!((lut.apply([5.0, -1.0, 0.0])[0] - 1.0).abs() < 1e-6);
        assert!(lut.apply([5.0, -1.0, 0.0])[1].abs() < 1e-6);
        let resolve =
            identity_cube(2).replace("LUT_3D_SIZE 2", "LUT_3D_SIZE 2\nLUT_3D_INPUT_RANGE 0 4");
        assert_eq!(Lut::from_cube(&resolve).unwrap().domain().1, [4.0; 3]);
    }

    #[test]
    fn a_malformed_file_names_the_line_and_what_is_wrong() {
        let good = identity_cube(2);
        let cases = [
            (
                good.replace("LUT_3D_SIZE 2", "LUT_3D_SIZE 1"),
                "line 3: LUT_3D_SIZE is '1'",
            ),
            (
                good.replace("LUT_3D_SIZE 2", "LUT_3D_SIZE 66"),
                "from 2 to 65",
            ),
            (
                good.replace("LUT_3D_SIZE 2", "LUT_1D_SIZE 2"),
                "line 3: a 1D table",
            ),
            (good.replace("LUT_3D_SIZE 2", ""), "data before LUT_3D_SIZE"),
            (
                good.replace("1 1 1\n", "1 x 1\n"),
                "line 12: 'x' is not a finite number",
            ),
            (
                good.replace("1 1 1\n", "1 1\n"),
                "line 12: '1 1' is not three numbers",
            ),
            (
                good.replace("1 1 1\n", ""),
                "ends after 7 colours; LUT_3D_SIZE 2 (line 3) needs 8",
            ),
            (good.clone() + "0 0 0\n", "line 13: more than 8 colours"),
            (
                good.clone() + "TITLE \"late\"\n",
                "line 13: 'TITLE' after the table's data",
            ),
            (
                good.replace("TITLE", "TITEL"),
                "line 2: unknown keyword 'TITEL'",
            ),
            (
                good.replace("1 1 1\n", "1 inf 1\n"),
                "'inf' is not a finite number",
            ),
            // A row that starts with a letter is still a row, first or not.
            (
                good.replace("1 1 1\n", "nan 1 1\n"),
                "line 12: 'nan' is not a finite number",
            ),
            (
                good.replacen("0 0 0\n", "abc 0 0\n", 1),
                "'abc' is not a finite number",
            ),
            (
                good.replace("1 1 1\n", "nan 1\n"),
                "line 12: 'nan 1' is not three numbers",
            ),
            (
                good.replace("LUT_3D_SIZE 2", "LUT_3D_SIZE 2\nLUT_1D_INPUT_RANGE 0 1"),
                "line 4: unknown keyword 'LUT_1D_INPUT_RANGE'",
            ),
            (
                good.clone() + "FOO 1\n",
                "line 13: 'FOO' after the table's data",
            ),
            (
                "LUT_3D_SIZE 2\n0 0 0\n".into(),
                "line 2: the file ends after 1 colour; LUT_3D_SIZE 2 (line 1) needs 8",
            ),
            (
                good.replace(
                    "LUT_3D_SIZE 2",
                    "LUT_3D_SIZE 2\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 1 0 1",
                ),
                "line 5: the domain's max must be above its min in every channel (channel 1",
            ),
            (String::new(), "no LUT_3D_SIZE"),
            ("<html>not a cube</html>".into(), "line 1: "),
        ];
        for (text, want) in cases {
            let got = message(&text);
            assert!(got.contains(want), "{want:?} not in {got:?}");
        }
    }

    #[test]
    fn numbers_read_as_the_standard_parser_reads_them() {
        let words = [
            "0",
            "1",
            "-1",
            "+0.5",
            "0.05",
            "1.",
            ".25",
            "-.75",
            "120",
            "1.50",
            "2.5e-3",
            "1E2",
            "3e+1",
            "0.000123456789",
            "0.1234567890123456789012",
            "12345678901234567890123",
            "1e-40",
            "-0",
            "007.5",
        ];
        for w in words {
            let want: f32 = w.parse().unwrap();
            let got = decimal_number(w).unwrap_or_else(|| panic!("{w} refused"));
            assert!(
                got == want || (got - want).abs() <= want.abs() * 2.0 * f32::EPSILON,
                "{w}: {got} against {want}"
            );
        }
        for bad in [
            "", "-", ".", "e5", "1e", "1e+", "1.2.3", "0x10", "inf", "nan", "1,5", "1e99", "--1",
        ] {
            assert_eq!(decimal_number(bad), None, "{bad:?} accepted");
        }
    }

    #[test]
    fn data_of_the_wrong_size_or_values_is_refused_by_name() {
        let e = Lut::new(1, vec![[0.0; 3]]).unwrap_err().to_string();
        assert!(e.contains("size") && e.contains("2 to 65"), "{e}");
        let e = Lut::new(2, vec![[0.0; 3]; 7]).unwrap_err().to_string();
        assert!(e.contains("data") && e.contains("has 7 colours"), "{e}");
        let mut nan = vec![[0.0; 3]; 8];
        nan[5][1] = f32::NAN;
        let e = Lut::new(2, nan).unwrap_err().to_string();
        assert!(e.contains("colour 5"), "{e}");
    }
}
