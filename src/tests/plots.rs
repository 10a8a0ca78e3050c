//! Plots of what the chain computes, measured on the GPU (lavapipe without
//! one) and drawn as PNGs: `AFTERGLOW_ARGS=docs cargo test --lib
//! tests::plots -- --ignored --nocapture` (the folder; `docs` when none is
//! given).
//!
//! - `curves-headroom.png`: each curve on an extended float output, grey
//!   radiance 10^-3 to 10^4 (x, log scale) to linear output 0 to 4 (y), at
//!   headroom 1 (dim) and 4 (bright): AgX white, ACES orange, Khronos PBR
//!   Neutral green, Reinhard blue. Grid: every decade across, every 1 up.
//! - `exposure-steps.png`: auto exposure's EV over 14 s (x, a line every
//!   second) for a scene stepping +6 EV at 1 s and back at 7 s, at the
//!   default speeds (darken 1, brighten 3 EV/s); y from -8 to 2 EV, a line
//!   every 2 EV, the targets (0 and -6) dim.

#[test]
#[ignore = "a tool: writes PNGs (AFTERGLOW_ARGS=folder)"]
fn plots() -> Result<(), Box<dyn std::error::Error>> {
    native::main(super::tool_args())
}

mod native {
    use crate::headless::{vulkan_gpu, Headless};
    use crate::options::{AlphaMode, CanvasFormat, Options, ToneMapping, Tonemapper};
    use crate::output::OutputSpec;
    use crate::{Content, PixelImage};
    use wgpu::TextureFormat as F;

    const W: u32 = 800;
    const H: u32 = 400;

    /// An RGB canvas with lines.
    struct Plot {
        px: Vec<u8>,
    }

    impl Plot {
        fn new() -> Plot {
            Plot {
                px: [16u8, 16, 20].repeat((W * H) as usize),
            }
        }

        fn dot(&mut self, x: i64, y: i64, c: [u8; 3]) {
            if (0..W as i64).contains(&x) && (0..H as i64).contains(&y) {
                let i = ((y as u32 * W + x as u32) * 3) as usize;
                self.px[i..i + 3].copy_from_slice(&c);
            }
        }

        /// A line between two points in pixels, two pixels thick.
        fn line(&mut self, a: (f64, f64), b: (f64, f64), c: [u8; 3]) {
            let steps = ((b.0 - a.0).abs().max((b.1 - a.1).abs()).ceil() as i64).max(1);
            for s in 0..=steps {
                let t = s as f64 / steps as f64;
                let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
                self.dot(x.round() as i64, y.round() as i64, c);
                self.dot(x.round() as i64, y.round() as i64 + 1, c);
            }
        }

        fn polyline(&mut self, points: &[(f64, f64)], c: [u8; 3]) {
            for p in points.windows(2) {
                self.line(p[0], p[1], c);
            }
        }

        fn write(&self, path: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
            let file = std::fs::File::create(path)?;
            let mut enc = png::Encoder::new(std::io::BufWriter::new(file), W, H);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            enc.write_header()?.write_image_data(&self.px)?;
            println!("wrote {}", path.display());
            Ok(())
        }
    }

    const GRID: [u8; 3] = [48, 48, 56];

    fn float_chain(o: Options, size: (u32, u32)) -> Result<Headless, Box<dyn std::error::Error>> {
        let gpu = pollster::block_on(vulkan_gpu())?;
        let output = OutputSpec::new(
            F::Rgba16Float,
            AlphaMode::Opaque,
            ToneMapping::Extended,
            Default::default(),
        )?;
        Ok(Headless::new(gpu, output, o, size)?)
    }

    fn float_options() -> Options {
        let mut o = crate::options::PREDICTABLE;
        o.canvas.format = CanvasFormat::Rgba16Float;
        o.canvas.tone_mapping = ToneMapping::Extended;
        o
    }

    fn srgb_decode(x: f32) -> f64 {
        let a = x.abs() as f64;
        let d = if a <= 0.04045 {
            a / 12.92
        } else {
            ((a + 0.055) / 1.055).powf(2.4)
        };
        d.copysign(x as f64)
    }

    fn curves(dir: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
        let n = 400u32;
        let radiance = |i: u32| 10f64.powf(-3.0 + 7.0 * i as f64 / (n - 1) as f64);
        let mut plot = Plot::new();
        let x_of = |log10: f64| (log10 + 3.0) / 7.0 * (W - 1) as f64;
        let y_of = |v: f64| (H - 1) as f64 - v / 4.0 * (H - 1) as f64;
        for d in -3..=4 {
            plot.line(
                (x_of(d as f64), 0.0),
                (x_of(d as f64), (H - 1) as f64),
                GRID,
            );
        }
        for v in 0..=4 {
            plot.line(
                (0.0, y_of(v as f64)),
                ((W - 1) as f64, y_of(v as f64)),
                GRID,
            );
        }
        let colours: [(Tonemapper, [u8; 3]); 4] = [
            (Tonemapper::Agx, [235, 235, 235]),
            (Tonemapper::Aces, [250, 150, 40]),
            (Tonemapper::KhronosNeutral, [90, 220, 110]),
            (Tonemapper::Reinhard, [90, 150, 250]),
        ];
        for (curve, colour) in colours {
            for headroom in [1.0, 4.0] {
                let mut o = float_options();
                o.tonemapper = curve;
                o.canvas.headroom = headroom;
                let mut h = float_chain(o, (n, 1))?;
                h.set_content(Content::Pixels(PixelImage {
                    width: n,
                    height: 1,
                    data: (0..n)
                        .map(|i| {
                            let r = radiance(i) as f32;
                            [r, r, r, 1.0]
                        })
                        .collect(),
                }))?;
                let img = pollster::block_on(h.render_and_read(0.0))?;
                let points: Vec<(f64, f64)> = (0..n)
                    .map(|i| {
                        let v = srgb_decode(img.rgba_f32(i, 0)[1]);
                        (x_of(radiance(i).log10()), y_of(v))
                    })
                    .collect();
                let dim = |c: u8| if headroom == 1.0 { c / 2 } else { c };
                plot.polyline(&points, colour.map(dim));
            }
        }
        plot.write(&dir.join("curves-headroom.png"))
    }

    fn exposure(dir: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
        let mut o = float_options();
        o.auto_exposure.enabled = true;
        let mut h = float_chain(o, (64, 64))?;
        let fps = 60.0;
        let seconds = 14.0;
        let mut plot = Plot::new();
        let x_of = |t: f64| t / seconds * (W - 1) as f64;
        let y_of = |ev: f64| (2.0 - ev) / 10.0 * (H - 1) as f64;
        for s in 0..=14 {
            plot.line(
                (x_of(s as f64), 0.0),
                (x_of(s as f64), (H - 1) as f64),
                GRID,
            );
        }
        for ev in (-8..=2).step_by(2) {
            plot.line(
                (0.0, y_of(ev as f64)),
                ((W - 1) as f64, y_of(ev as f64)),
                GRID,
            );
        }
        for (target, from, to) in [(0.0, 0.0, 1.0), (-6.0, 1.0, 7.0), (0.0, 7.0, 14.0)] {
            plot.line(
                (x_of(from), y_of(target)),
                (x_of(to), y_of(target)),
                [90, 70, 40],
            );
        }
        let mut points = vec![];
        let mut radiance = -1.0f32;
        for frame in 0..(seconds * fps) as u32 {
            let t = frame as f64 / fps;
            let want = if (1.0..7.0).contains(&t) {
                0.18 * 64.0
            } else {
                0.18
            };
            if want != radiance {
                radiance = want;
                h.set_content(Content::Solid([want, want, want, 1.0]))?;
            }
            h.render(t);
            let _ = h.gpu.device.poll(wgpu::PollType::wait_indefinitely());
            if let Some(ev) = h.chain.report().exposure_ev {
                points.push((x_of(t), y_of(ev)));
            }
        }
        plot.polyline(&points, [250, 170, 60]);
        plot.write(&dir.join("exposure-steps.png"))
    }

    pub fn main(args: Vec<String>) -> Result<(), Box<dyn std::error::Error>> {
        let dir = std::path::PathBuf::from(args.first().map_or("docs", String::as_str));
        std::fs::create_dir_all(&dir)?;
        curves(&dir)?;
        exposure(&dir)
    }
}
