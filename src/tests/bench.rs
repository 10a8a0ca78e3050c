//! GPU time per pass of the chain, natively on Vulkan, from timestamp
//! queries: `AFTERGLOW_ARGS='[frames] [filter]' cargo test --release --lib
//! tests::bench -- --ignored --nocapture` (only the configurations whose
//! name contains `filter`, if given).
//!
//! Renders the demo scene at 1080p and 4K in several chain shapes and
//! prints the median GPU milliseconds of every pass and of the whole frame,
//! plus the bytes the size-dependent targets hold. `cargo xtask bench
//! --native` builds it (at two commits with `--before`), runs it and writes
//! the report with where its figures come from.

#[test]
#[ignore = "a benchmark: prints GPU times (AFTERGLOW_ARGS='[frames] [filter]')"]
fn gpu_time_per_pass() -> Result<(), Box<dyn std::error::Error>> {
    native::main(super::tool_args())
}

mod native {
    use std::collections::BTreeMap;

    use crate::headless::{vulkan_gpu, Headless};
    use crate::options::{Antialias, BlurMode, Msaa, Options, Resolve};
    use crate::output::OutputSpec;

    // The look, whole and in its parts; a lookup table and lens dirt are
    // set for the configurations that name them.
    const LOOK: &str = "the look: grading, vignette, LUT, lens dirt";
    const LUT_PART: &str = "look part: LUT";
    const DIRT_PART: &str = "look part: lens dirt";
    const TINT: &str = "user effect: one-line tint";

    /// The chain shapes measured, by name: the look's configurations get
    /// a lookup table and lens dirt set, the tint's an effect added.
    fn configs() -> Vec<(&'static str, Options)> {
        let mut configs: Vec<(&str, Options)> = Vec::new();
        let base = Options::default();
        configs.push(("default (msaa 4, mip bloom)", base));
        let mut o = base;
        o.msaa = Msaa::Off;
        configs.push(("msaa 1, mip bloom", o));
        for (name, mode) in [
            ("msaa 1, antialias fxaa", Antialias::Fxaa),
            ("msaa 1, antialias smaa", Antialias::Smaa),
        ] {
            let mut o = base;
            o.msaa = Msaa::Off;
            o.antialias = mode;
            configs.push((name, o));
        }
        let mut o = base;
        o.msaa = Msaa::Off;
        o.sharpen.amount = 0.5;
        configs.push(("msaa 1, sharpen 0.5", o));
        // Half the pixels (renderScale 0.5, which the loop applies), scaled
        // up each way: the upscaler's cost is the composite's difference.
        for (name, upscale) in [
            (
                "msaa 1, render scale 0.5, bilinear",
                crate::options::Upscale::Bilinear,
            ),
            (
                "msaa 1, render scale 0.5, edge",
                crate::options::Upscale::Edge,
            ),
        ] {
            let mut o = base;
            o.msaa = Msaa::Off;
            o.render_scale = 0.5;
            o.upscale = upscale;
            configs.push((name, o));
        }
        let mut o = base;
        o.resolve = Resolve::Tonemapped;
        configs.push(("msaa 4 tonemapped resolve", o));
        let mut o = base;
        o.bloom.blur = BlurMode::Gaussian;
        configs.push(("gaussian bloom, 3 iterations", o));
        let mut o = base;
        o.auto_exposure.enabled = true;
        configs.push(("default + auto exposure", o));
        let mut o = base;
        o.msaa = Msaa::Off;
        o.auto_exposure.enabled = true;
        configs.push(("msaa 1 + auto exposure", o));
        let mut o = base;
        o.msaa = Msaa::Off;
        o.bloom.mode = crate::options::BloomMode::EnergyConserving;
        configs.push(("msaa 1, energy-conserving bloom", o));
        let mut o = base;
        o.bloom.enabled = false;
        configs.push(("bloom off", o));
        let mut o = base;
        o.dither = false;
        configs.push(("no dither", o));
        let mut o = base;
        o.dither = false;
        o.tonemapper = crate::options::Tonemapper::None;
        configs.push(("no dither, no tonemapper", o));
        let mut o = base;
        o.grading.temperature = 0.3;
        o.grading.saturation = 1.1;
        o.grading.contrast = 1.1;
        o.vignette.intensity = 0.3;
        o.bloom.dirt_intensity = 2.0;
        configs.push((LOOK, o));
        let mut o = base;
        o.grading.temperature = 0.3;
        o.grading.saturation = 1.1;
        o.grading.contrast = 1.1;
        configs.push(("look part: grading", o));
        let mut o = base;
        o.vignette.intensity = 0.3;
        configs.push(("look part: vignette", o));
        configs.push((LUT_PART, base));
        let mut o = base;
        o.bloom.dirt_intensity = 2.0;
        configs.push((DIRT_PART, o));
        let mut o = base;
        o.lens.chromatic_aberration = 4.0;
        configs.push(("effect: chromatic aberration", o));
        let mut o = base;
        o.grain.intensity = 0.3;
        configs.push(("effect: film grain", o));
        // An effect of the user's own: a one-line tint, fused.
        configs.push((TINT, base));
        configs
    }

    /// Adds one frame's pass times to each pass's samples and its sum to
    /// the frame totals.
    fn keep(
        times: crate::timing::PassTimes,
        per_pass: &mut BTreeMap<usize, (String, Vec<f64>)>,
        totals: &mut Vec<f64>,
    ) {
        totals.push(times.iter().map(|(_, ms)| ms).sum::<f64>());
        for (k, (pass, ms)) in times.into_iter().enumerate() {
            per_pass.entry(k).or_insert((pass, Vec::new())).1.push(ms);
        }
    }

    fn median(v: &mut [f64]) -> f64 {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    }

    /// Renders `h` as it is set up, 30 frames to warm up then `frames`
    /// timed, and prints the median frame, each pass and the bloom's
    /// passes together under `label`.
    fn measure(h: &Headless, label: &str, frames: usize) -> Result<(), Box<dyn std::error::Error>> {
        for i in 0..30 {
            h.render(i as f64 / 60.0);
            h.gpu.device.poll(wgpu::PollType::wait_indefinitely())?;
        }
        let mut per_pass: BTreeMap<usize, (String, Vec<f64>)> = BTreeMap::new();
        let mut totals = Vec::new();
        let mut cpu = Vec::new();
        for i in 0..frames {
            let start = std::time::Instant::now();
            h.render(1.0 + i as f64 / 60.0);
            cpu.push(start.elapsed().as_secs_f64() * 1e3);
            h.gpu.device.poll(wgpu::PollType::wait_indefinitely())?;
            if let Some(times) = h.chain.pass_times() {
                keep(times, &mut per_pass, &mut totals);
            }
        }
        println!(
            "\n{label}: frame GPU {:.3} ms (median of {}), CPU encode+submit {:.3} ms, targets {:.1} MiB",
            if totals.is_empty() { f64::NAN } else { median(&mut totals) },
            totals.len(),
            median(&mut cpu),
            h.chain.target_bytes() as f64 / (1024.0 * 1024.0)
        );
        let bloom: f64 = per_pass
            .values_mut()
            .filter(|(p, _)| p.starts_with("bloom"))
            .map(|(_, v)| median(v))
            .sum();
        for (pass, v) in per_pass.values_mut() {
            println!("  {pass:<24} {:.4} ms", median(v));
        }
        println!("  {:<24} {bloom:.4} ms", "(all bloom passes)");
        Ok(())
    }

    pub fn main(args: Vec<String>) -> Result<(), Box<dyn std::error::Error>> {
        let frames: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(200);
        let gpu = pollster::block_on(vulkan_gpu())?;
        // On a line of its own, whatever the test harness printed before.
        println!(
            "\nadapter: {} ({:?})",
            gpu.adapter_info.as_ref().map_or("?", |i| &i.name),
            gpu.adapter_info.as_ref().map(|i| i.backend)
        );
        // The output as an rgba8unorm canvas gets it (Chrome on Linux and
        // Android): written by the composite as compute.
        let output = OutputSpec::new(
            wgpu::TextureFormat::Rgba8Unorm,
            Default::default(),
            Default::default(),
            Default::default(),
        )?
        .written_by_compute();
        let filter = args.get(1..).unwrap_or_default().join(" ");
        let base = Options::default();
        let mut configs = configs();
        configs.retain(|(name, _)| name.contains(filter.as_str()));
        let mut h = Headless::new(gpu, output, base, (1920, 1080))?;
        let lut = film_lut()?;
        let dirt = dirt_texture(&h.gpu.device, &h.gpu.queue);
        h.chain.set_timing(&h.gpu, true);
        for size in [(1920u32, 1080u32), (3840, 2160)] {
            h.resize(size)?;
            for (name, options) in &configs {
                h.chain
                    .set_lut(&h.gpu, [LOOK, LUT_PART].contains(name).then_some(&lut))?;
                h.chain.set_dirt(
                    &h.gpu,
                    [LOOK, DIRT_PART]
                        .contains(name)
                        .then(|| crate::passes::look::DirtTexture {
                            view: dirt.create_view(&Default::default()),
                            size: (dirt.width(), dirt.height()),
                            own: None,
                        }),
                )?;
                h.set_settings(*options)?;
                // The scene at renderScale of the output's size.
                let scaled = |n: u32| ((f64::from(n) * options.render_scale).round() as u32).max(1);
                h.chain
                    .resize_scaled(&h.gpu, (scaled(size.0), scaled(size.1)), size)?;
                if *name == TINT {
                    add_tint(&mut h)?;
                }
                measure(&h, &format!("{}×{} {name}", size.0, size.1), frames)?;
                if *name == TINT {
                    h.chain.remove_effect(&h.gpu, "tint")?;
                }
            }
        }
        h.chain.set_lut(&h.gpu, None)?;
        h.chain.set_dirt(&h.gpu, None)?;
        dirt.destroy();
        assert_eq!(
            h.gpu.error_count(),
            0,
            "GPU errors: {:?}",
            h.gpu.last_error()
        );
        if "depth of field".contains(filter.as_str()) {
            for size in [(1920u32, 1080u32), (3840, 2160)] {
                depth_of_field(frames, size)?;
            }
        }
        Ok(())
    }

    /// Depth of field at its defaults but `maxBlur` 16 (as wide as the
    /// default frame's share of it is judged at), through `PostChain` with
    /// a depth buffer, as a program hands over its frame: stripes with a
    /// near band over a far field, focus on the far one. Printed as a
    /// configuration of its own; its passes are what it adds to a frame.
    fn depth_of_field(frames: usize, size: (u32, u32)) -> Result<(), Box<dyn std::error::Error>> {
        use crate::tests::depth_of_field as dof;
        let mut options = Options::default();
        options.msaa = Msaa::Off;
        let d = &mut options.depth_of_field;
        (d.enabled, d.focus_distance, d.max_blur) = (true, 20.0, 16.0);
        let mut r = dof::rig(size, &options);
        let scene = dof::colour(&r, |x, _| dof::stripes(x / 4) * 4.0);
        let camera = crate::Camera::perspective(0.1, 100.0);
        let depth = dof::depth_buffer(&r, (wgpu::TextureFormat::Depth32Float, 1), |x, _| {
            dof::raw_depth(&camera, dof::stripe_distance(x * 480 / size.0))
        });
        {
            let (gpu, chain) = r.post.parts();
            chain.set_timing(gpu, true);
        }
        let view = r.output.create_view(&Default::default());
        let mut per_pass: BTreeMap<usize, (String, Vec<f64>)> = BTreeMap::new();
        let mut totals = Vec::new();
        for i in 0..frames + 30 {
            let mut encoder = r.gpu.device.create_command_encoder(&Default::default());
            r.post.render_with_depth(
                &mut encoder,
                &scene,
                None,
                crate::Depth::buffer(&depth, camera),
                &view,
                r.output.format(),
            )?;
            r.gpu.queue.submit([encoder.finish()]);
            r.gpu.device.poll(wgpu::PollType::wait_indefinitely())?;
            let times = r.post.parts().1.pass_times();
            if let (true, Some(times)) = (i >= 30, times) {
                keep(times, &mut per_pass, &mut totals);
            }
        }
        println!(
            "\n{}×{} depth of field, maxBlur 16 (PostChain, msaa 1): frame GPU {:.3} ms (median of {})",
            size.0,
            size.1,
            if totals.is_empty() { f64::NAN } else { median(&mut totals) },
            totals.len(),
        );
        for (pass, v) in per_pass.values_mut() {
            println!("  {pass:<24} {:.4} ms", median(v));
        }
        assert_eq!(
            r.gpu.error_count(),
            0,
            "GPU errors: {:?}",
            r.gpu.last_error()
        );
        Ok(())
    }

    /// A 33³ table with a film-like S-curve and split tone: the content
    /// does not change the cost, the size does (33 is common in tools).
    fn film_lut() -> Result<crate::Lut, crate::Error> {
        let n = 33u32;
        let s = |x: f32| x * x * (3.0 - 2.0 * x);
        let mut data = Vec::with_capacity((n * n * n) as usize);
        for b in 0..n {
            for g in 0..n {
                for r in 0..n {
                    let c = [r, g, b].map(|v| v as f32 / (n - 1) as f32);
                    data.push([
                        s(c[0]) * 0.95 + 0.04,
                        s(c[1]) * 0.93 + 0.05,
                        s(c[2]) * 0.9 + 0.07,
                    ]);
                }
            }
        }
        crate::Lut::new(n, data)
    }

    /// A 1024×576 dirt texture of soft specks.
    fn dirt_texture(device: &wgpu::Device, queue: &wgpu::Queue) -> wgpu::Texture {
        let (w, h) = (1024u32, 576u32);
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("bench dirt"),
            size: wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let mut texels = Vec::with_capacity((w * h * 4) as usize);
        for y in 0..h {
            for x in 0..w {
                let v = (((x * 7 + y * 13) ^ (x * y)) % 97) as f32 / 96.0;
                let level = (v * v * 255.0) as u8;
                texels.extend_from_slice(&[level, level, level, 255]);
            }
        }
        queue.write_texture(
            texture.as_image_copy(),
            &texels,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(w * 4),
                rows_per_image: None,
            },
            texture.size(),
        );
        texture
    }

    /// Adds the one-line tint effect to the chain.
    fn add_tint(h: &mut Headless) -> Result<(), Box<dyn std::error::Error>> {
        use crate::user_effect::{make, EffectSpec, EffectStage, UniformValue};
        let spec = EffectSpec {
            name: "tint".into(),
            stage: EffectStage::Scene,
            wgsl: "fn effect(color: vec4f, uv: vec2f) -> vec4f { return vec4f(color.rgb * uniforms.tint, color.a); }".into(),
            uniforms: vec![("tint".into(), UniformValue::Vec3([1.0, 0.9, 0.8]))],
            textures: Vec::new(),
        };
        let serial = h.chain.next_effect_serial();
        let effect = make(&h.gpu, spec, serial, &[])?;
        h.chain.add_effect(&h.gpu, effect)?;
        Ok(())
    }
}
