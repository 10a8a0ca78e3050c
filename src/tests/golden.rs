//! Reference images, natively: a fixed set of frames rendered on lavapipe
//! and compared pixel by pixel with the PNGs in `tests/golden/native/`.
//!
//! Tolerance: 1/255 per channel for 8-bit outputs (one quantisation step:
//! lavapipe is deterministic for a given build, so the step covers
//! rounding differences of reordered but equivalent arithmetic), and
//! 1/255 relative (at least 1/255 absolute) for `rgba16float`. A change that
//! moves pixels further must re-bless deliberately:
//! `AFTERGLOW_BLESS=1 cargo test --lib tests::golden` rewrites the files.

use std::path::PathBuf;

use crate::headless::{vulkan_gpu, Headless};
use crate::options::{
    AlphaMode, BlurMode, CanvasFormat, Msaa, Options, Resolve, ToneMapping, Tonemapper,
};
use crate::output::OutputSpec;
use crate::readback::{f16_to_f32, Image};
use wgpu::TextureFormat as F;

struct Case {
    name: &'static str,
    size: (u32, u32),
    time: f64,
    options: Options,
}

fn cases() -> Vec<Case> {
    let base = Options::default();
    let with = |f: &dyn Fn(&mut Options)| {
        let mut o = base;
        f(&mut o);
        o
    };
    let size = (192, 108);
    let mut v = vec![];
    for (name, t) in [
        ("demo-agx", Tonemapper::Agx),
        ("demo-aces", Tonemapper::Aces),
        ("demo-khronos-neutral", Tonemapper::KhronosNeutral),
        ("demo-reinhard", Tonemapper::Reinhard),
        ("demo-none", Tonemapper::None),
    ] {
        v.push(Case {
            name,
            size,
            time: 2.0,
            options: with(&|o| o.tonemapper = t),
        });
    }
    v.push(Case {
        name: "demo-agx-t5",
        size,
        time: 5.0,
        options: base,
    });
    v.push(Case {
        name: "msaa1",
        size,
        time: 2.0,
        options: with(&|o| o.msaa = Msaa::Off),
    });
    v.push(Case {
        name: "msaa4-tonemapped-resolve",
        size,
        time: 2.0,
        options: with(&|o| o.resolve = Resolve::Tonemapped),
    });
    v.push(Case {
        name: "gaussian-bloom",
        size,
        time: 2.0,
        options: with(&|o| o.bloom.blur = BlurMode::Gaussian),
    });
    v.push(Case {
        name: "bloom-off",
        size,
        time: 2.0,
        options: with(&|o| o.bloom.enabled = false),
    });
    v.push(Case {
        name: "premultiplied",
        size,
        time: 2.0,
        options: with(&|o| o.canvas.alpha_mode = AlphaMode::Premultiplied),
    });
    v.push(Case {
        name: "rgba16float-extended",
        size,
        time: 2.0,
        options: with(&|o| {
            o.canvas.format = CanvasFormat::Rgba16Float;
            o.canvas.tone_mapping = ToneMapping::Extended;
            o.tonemapper = Tonemapper::None;
        }),
    });
    // The looks that run inside the composite, on: the scene's (vignette
    // and grading) over the additive and the energy-conserving bloom.
    let looks = |o: &mut Options| {
        o.vignette.intensity = 0.6;
        o.grading.temperature = 0.4;
        o.grading.tint = -0.2;
        o.grading.saturation = 1.3;
        o.grading.contrast = 1.2;
    };
    v.push(Case {
        name: "looks",
        size,
        time: 2.0,
        options: with(&looks),
    });
    v.push(Case {
        name: "looks-energy-premultiplied",
        size,
        time: 2.0,
        options: with(&|o| {
            looks(o);
            o.bloom.mode = crate::BloomMode::EnergyConserving;
            o.canvas.alpha_mode = AlphaMode::Premultiplied;
        }),
    });
    v.push(Case {
        name: "odd-size",
        size: (97, 61),
        time: 2.0,
        options: base,
    });
    v
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/native")
}

/// 8-bit outputs as RGBA8 (stored values, premultiplied where the canvas
/// is); `rgba16float` as 16-bit PNG holding the half-float bits.
fn to_png(img: &Image) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, img.width, img.height);
    enc.set_color(png::ColorType::Rgba);
    let mut data = Vec::new();
    if img.format == F::Rgba16Float {
        enc.set_depth(png::BitDepth::Sixteen);
        for px in img.data.chunks_exact(2) {
            data.extend_from_slice(&[px[1], px[0]]);
        }
    } else {
        enc.set_depth(png::BitDepth::Eight);
        for y in 0..img.height {
            for x in 0..img.width {
                data.extend_from_slice(&img.rgba8(x, y));
            }
        }
    }
    let mut w = enc.write_header().expect("png header");
    w.write_image_data(&data).expect("png data");
    drop(w);
    out
}

/// A PNG back as floats per channel.
fn from_png(bytes: &[u8]) -> (u32, u32, Vec<f32>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("png");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    let buf = &buf[..info.buffer_size()];
    let values = match info.bit_depth {
        png::BitDepth::Sixteen => buf
            .chunks_exact(2)
            .map(|c| f16_to_f32(u16::from_be_bytes([c[0], c[1]])))
            .collect(),
        _ => buf.iter().map(|&v| v as f32 / 255.0).collect(),
    };
    (info.width, info.height, values)
}

#[test]
fn frames_match_the_reference_images() {
    let bless = std::env::var_os("AFTERGLOW_BLESS").is_some();
    let mut failures = vec![];
    for case in cases() {
        let gpu = pollster::block_on(vulkan_gpu()).expect("a Vulkan adapter (lavapipe)");
        let format = match case.options.canvas.format {
            CanvasFormat::Rgba16Float => F::Rgba16Float,
            CanvasFormat::Preferred => F::Rgba8Unorm,
        };
        let o = case.options;
        let output = OutputSpec::new(
            format,
            o.canvas.alpha_mode,
            o.canvas.tone_mapping,
            o.canvas.color_space,
        )
        .expect("output");
        let headless = Headless::new(gpu, output, o, case.size).expect("renderer");
        let img = pollster::block_on(headless.render_and_read(case.time)).expect("readback");
        assert_eq!(headless.gpu.error_count(), 0, "{}: GPU errors", case.name);
        let png = to_png(&img);
        let path = dir().join(format!("{}.png", case.name));
        if bless {
            std::fs::create_dir_all(dir()).expect("golden dir");
            std::fs::write(&path, &png).expect("write golden");
            continue;
        }
        let want = std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; bless with AFTERGLOW_BLESS=1 cargo test --lib tests::golden",
                path.display()
            )
        });
        let (ww, wh, want) = from_png(&want);
        let (gw, gh, got) = from_png(&png);
        assert_eq!((gw, gh), (ww, wh), "{}: size", case.name);
        let float = format == F::Rgba16Float;
        let mut worst = (0.0f32, 0usize);
        let largest = got
            .iter()
            .zip(&want)
            .map(|(g, w)| (g - w).abs())
            .fold(0.0f32, f32::max);
        println!(
            "{}: largest difference {:.2}/255",
            case.name,
            largest * 255.0
        );
        for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
            let tol = if float {
                (w.abs() / 255.0).max(1.0 / 255.0)
            } else {
                1.0 / 255.0 + 1e-6
            };
            let d = (g - w).abs();
            if (d.is_nan() || d > tol) && d / tol > worst.0 {
                worst = (d / tol, i);
            }
        }
        if worst.0 > 0.0 {
            let i = worst.1;
            let (x, y) = ((i / 4) as u32 % gw, (i / 4) as u32 / gw);
            failures.push(format!(
                "{}: pixel ({x}, {y}) channel {} is {} but the reference has {} \
                 ({:.1}× the tolerance)",
                case.name,
                i % 4,
                got[i],
                want[i],
                worst.0
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
