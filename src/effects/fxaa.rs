//! FXAA: fast approximate anti-aliasing of the displayed picture, one
//! pass, on the display image the composite writes before it
//! (`antialias: 'fxaa'`). It reads around its pixel, so the frame is split
//! at it (`crate::effect::Neighbours`); it has no passes of its own
//! before its function runs.

use crate::effect::{Builtin, Neighbours, Place};
use crate::options::types::Antialias;

pub const EFFECT: Builtin = Builtin {
    name: "fxaa",
    place: Place::Display,
    wgsl: wgsl!("effect_fxaa.wgsl"),
    params: None,
    textures: &[],
    on: |o, _| o.antialias == Antialias::Fxaa,
    write: |_, _| Vec::new(),
    neighbours: Some(&Neighbours {
        passes: &[],
        reads: &[],
        hook: false,
    }),
};
