//! GPU time per pass of the chain, natively on Vulkan, from timestamp
//! queries: `cargo run --release --example bench [frames]`.
//!
//! Renders the demo scene at 1080p and 4K in several chain shapes and
//! prints the median GPU milliseconds of every pass and of the whole frame,
//! plus the bytes the size-dependent targets hold.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    native::main()
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::collections::BTreeMap;

    use afterglow::headless::{vulkan_gpu, Headless};
    use afterglow::options::{BlurMode, Msaa, Options, Resolve};
    use afterglow::output::OutputSpec;

    fn median(v: &mut [f64]) -> f64 {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    }

    pub fn main() -> Result<(), Box<dyn std::error::Error>> {
        let frames: usize = std::env::args()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(200);
        let gpu = pollster::block_on(vulkan_gpu())?;
        println!(
            "adapter: {} ({:?})",
            gpu.adapter_info.as_ref().map_or("?", |i| &i.name),
            gpu.adapter_info.as_ref().map(|i| i.backend)
        );
        let output = OutputSpec::new(
            wgpu::TextureFormat::Rgba8Unorm,
            Default::default(),
            Default::default(),
            Default::default(),
        )?;
        let mut configs: Vec<(&str, Options)> = Vec::new();
        let base = Options::default();
        configs.push(("default (msaa 4, mip bloom)", base));
        let mut o = base;
        o.msaa = Msaa::Off;
        configs.push(("msaa 1, mip bloom", o));
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
        o.bloom.mode = afterglow::options::BloomMode::EnergyConserving;
        configs.push(("msaa 1, energy-conserving bloom", o));
        let mut o = base;
        o.bloom.enabled = false;
        configs.push(("bloom off", o));
        let mut o = base;
        o.dither = false;
        configs.push(("no dither", o));
        let mut o = base;
        o.dither = false;
        o.tonemapper = afterglow::options::Tonemapper::None;
        configs.push(("no dither, no tonemapper", o));
        let mut h = Headless::new(gpu, output, base, (1920, 1080))?;
        h.chain.set_timing(&h.gpu, true);
        for size in [(1920u32, 1080u32), (3840, 2160)] {
            h.resize(size)?;
            for (name, options) in &configs {
                h.set_settings(*options)?;
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
                        totals.push(times.iter().map(|(_, ms)| ms).sum::<f64>());
                        for (k, (pass, ms)) in times.into_iter().enumerate() {
                            per_pass.entry(k).or_insert((pass, Vec::new())).1.push(ms);
                        }
                    }
                }
                println!(
                    "\n{}×{} {name}: frame GPU {:.3} ms (median of {}), CPU encode+submit {:.3} ms, targets {:.1} MiB",
                    size.0,
                    size.1,
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
            }
        }
        assert_eq!(
            h.gpu.error_count(),
            0,
            "GPU errors: {:?}",
            h.gpu.last_error()
        );
        Ok(())
    }
}
