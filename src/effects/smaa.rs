//! SMAA 1x: subpixel morphological anti-aliasing of the displayed picture
//! (`antialias: 'smaa'`), after Jimenez et al. (2012). Three passes on the
//! display image the composite writes before it: the edges (luma, with
//! local contrast adaptation), the blending weights (the edges' patterns
//! searched orthogonally and diagonally, the area under the line that
//! joins their ends computed), and the neighbourhood blending, which is this effect's
//! function in the pass that resumes the frame.

use crate::effect::{Builtin, Input, Neighbours, Place, Prepass};
use crate::options::types::Antialias;

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
                wgsl: wgsl!("smaa_edges.wgsl"),
                entry: "cs_smaa_edges",
                function: "fx_smaa_find_edges",
                format: wgpu::TextureFormat::Rgba8Unorm,
                reads: &[("smaa_color", Input::Display)],
            },
            Prepass {
                name: "smaa weights",
                wgsl: wgsl!("smaa_weights.wgsl"),
                entry: "cs_smaa_weights",
                function: "fx_smaa_find_weights",
                format: wgpu::TextureFormat::Rgba8Unorm,
                reads: &[("smaa_edges", Input::Pass(0))],
            },
        ],
        reads: &[("smaa_weights", Input::Pass(1))],
    }),
};
