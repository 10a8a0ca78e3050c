//! SMAA 1x: subpixel morphological anti-aliasing of the displayed picture
//! (`antialias: 'smaa'`), after Jimenez et al. (2012). Three passes on the
//! display image the composite writes before it: the edges (luma, with
//! local contrast adaptation), the blending weights (the edges' patterns
//! searched orthogonally and diagonally, the area under the line that
//! joins their ends read from a table), and the neighbourhood blending,
//! which is this effect's function in the pass that resumes the frame. The
//! table is computed on the GPU where SMAA's reference ships an image: a
//! few kilobytes of download less for one pass of 22,704 texels, run once
//! per device.

use crate::effect::{Builtin, Input, Neighbours, Place, Prepass};
use crate::options::types::Antialias;

/// The area table's functions: the table pass's WGSL, and the first part
/// of the weights pass's, which reads its layout.
const AREA: &str = wgsl!("smaa_area.wgsl");

/// The area table's size: 4 x 4 blocks of 33 x 33 texels, then 4 x 4 of
/// 10 x 10 (`smaa_ortho_block`, `smaa_diag_block` in smaa_area.wgsl).
pub const AREA_SIZE: (u32, u32) = (4 * 33 + 4 * 10, 4 * 33);

pub const EFFECT: Builtin = Builtin {
    name: "smaa",
    place: Place::Display,
    wgsl: wgsl!("effect_smaa.wgsl"),
    params: None,
    textures: &[],
    on: |o, _| o.antialias == Antialias::Smaa,
    write: |_, _| Vec::new(),
    neighbours: Some(&Neighbours {
        passes: &[
            Prepass {
                name: "smaa edges",
                wgsl: &[wgsl!("smaa_edges.wgsl")],
                entry: "cs_smaa_edges",
                function: "fx_smaa_find_edges",
                format: wgpu::TextureFormat::Rgba8Unorm,
                table: None,
                reads: &[("smaa_color", Input::Display)],
            },
            Prepass {
                name: "smaa area",
                wgsl: &[AREA],
                entry: "cs_smaa_area",
                function: "fx_smaa_area_table",
                format: wgpu::TextureFormat::Rgba16Float,
                table: Some(AREA_SIZE),
                reads: &[],
            },
            Prepass {
                name: "smaa weights",
                wgsl: &[AREA, wgsl!("smaa_weights.wgsl")],
                entry: "cs_smaa_weights",
                function: "fx_smaa_find_weights",
                format: wgpu::TextureFormat::Rgba8Unorm,
                table: None,
                reads: &[
                    ("smaa_edges", Input::Pass(0)),
                    ("smaa_area", Input::Pass(1)),
                ],
            },
        ],
        reads: &[("smaa_weights", Input::Pass(2))],
        hook: false,
    }),
};
