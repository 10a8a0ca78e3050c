//! Renders one frame natively (Vulkan; lavapipe without a GPU) and writes
//! it as a PNG: `AFTERGLOW_ARGS='out.png [width height time [scene.wgsl]]'
//! cargo test --lib tests::snapshot -- --ignored --nocapture` (the demo
//! scene, or a scene shader from a file).

#[test]
#[ignore = "a tool: writes a PNG (AFTERGLOW_ARGS='out.png [width height time [scene.wgsl]]')"]
fn snapshot() -> Result<(), Box<dyn std::error::Error>> {
    native::main(super::tool_args())
}

mod native {
    use crate::headless::{vulkan_gpu, Headless};
    use crate::options::Options;
    use crate::output::OutputSpec;

    pub fn main(args: Vec<String>) -> Result<(), Box<dyn std::error::Error>> {
        let path = args
            .first()
            .cloned()
            .unwrap_or_else(|| "snapshot.png".into());
        let num = |i: usize, d: f64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
        let (w, h, t) = (num(1, 960.0) as u32, num(2, 540.0) as u32, num(3, 2.0));
        let gpu = pollster::block_on(vulkan_gpu())?;
        let options = Options::default();
        let output = OutputSpec::new(
            wgpu::TextureFormat::Rgba8Unorm,
            options.canvas.alpha_mode,
            options.canvas.tone_mapping,
            options.canvas.color_space,
        )?;
        #[allow(unused_mut)]
        let mut headless = Headless::new(gpu, output, options, (w, h))?;
        if let Some(file) = args.get(4) {
            let wgsl = std::fs::read_to_string(file)?;
            headless.set_content(crate::Content::Shader(wgsl))?;
        }
        let img = pollster::block_on(headless.render_and_read(t))?;
        let file = std::fs::File::create(&path)?;
        let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w, h);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.write_header()?.write_image_data(&img.data)?;
        println!(
            "wrote {path} ({w}×{h}, t = {t} s, adapter {})",
            headless.gpu.adapter_info.as_ref().map_or("?", |i| &i.name)
        );
        Ok(())
    }
}
