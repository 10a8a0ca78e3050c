//! Composite: the last link of the chain and the only pass that touches the
//! output texture. Reads the HDR target and the bloom result, applies
//! exposure, bloom intensity, the tonemapper and dithering, and writes
//! through the output's `-srgb` view (or encodes in the shader where there
//! is none), premultiplied when the canvas is. The bloom is added here
//! rather than in a separate full-resolution pass: the HDR target is read
//! once and never written back.

use crate::pass::{Registration, Stage,     entry, layout, linear_sampler, pipeline, pipeline_layout, shader_module, uniform,
    Blend, FrameUniform, uniform_buffer, Pass, Pipe, PipeCache, PipeDesc, FILTERABLE_TEXTURE, FILTERING_SAMPLER,
    UNIFORM,
};
use crate::error::Error;
use crate::frame::{FrameBuilder, FrameInfo};
use crate::gpu::Gpu;
use crate::output::OutputSpec;
use crate::options::{BloomMode, DebugView, GradingOptions, Options};
use crate::passes::look::LutInfo;

/// The WGSL of the composite pass after the full-screen stage.
pub const SHADER_PARTS: &[&str] = &[
    wgsl!("tonemap.wgsl"),
    wgsl!("bright.wgsl"),
    wgsl!("composite.wgsl"),
];

uniform! {
    /// `CompositeParams` in composite.wgsl (layout checked by tests/shaders.rs).
    struct CompositeParams {
        exposure: f32,
        bloom_scale: f32,
        // Frame to bloom texture coordinates (see `bloom::coverage`).
        bloom_uv: [f32; 2],
        // The curve's peak (1 but on the extended path: `canvas.headroom`).
        headroom: f32,
        // The bloom extract's threshold and knee width, for the
        // energy-conserving mode, which takes back what blooms.
        threshold: f32,
        knee: f32,
        // How much of each pixel's bloomed light it gives away (0 in the
        // additive mode).
        bloom_subtract: f32,
        // `grading`: the white balance as a linear-sRGB matrix (three
        // columns), the saturation and the contrast.
        white_balance: [[f32; 4]; 3],
        saturation: f32,
        contrast: f32,
        // `vignette`, and the output's width over its height.
        vignette_intensity: f32,
        vignette_radius: f32,
        vignette_smoothness: f32,
        aspect: f32,
        // `grading.lutIntensity` and `bloom.dirtIntensity`.
        lut_intensity: f32,
        dirt_intensity: f32,
        // The table's domain as a scale and offset to [0, 1], and its last
        // index (see `lut_mapping`).
        lut_scale: [f32; 3],
        lut_last: f32,
        lut_offset: [f32; 3],
        _pad1: f32,
        // Frame to dirt coordinates around the centre (see `dirt_scale`).
        dirt_scale: [f32; 2],
        _pad2: [f32; 2],
    }
}

uniform! {
    /// `ExposureView` in composite.wgsl and auto_exposure.wgsl: what
    /// `debug: 'exposure'` draws (layout checked by tests/shaders.rs).
    struct ExposureView {
        bins: [[f32; 4]; 16],
        meter: [f32; 4],
    }
}

/// What a composite pipeline is specialised for: the output view's format
/// and the shader's override constants.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Variant {
    pub format: wgpu::TextureFormat,
    /// `FLAGS`: the `FLAG_*` bits of the output and the frame.
    pub flags: u32,
    /// `TONEMAPPER`: the curve's `TONEMAP_*` index.
    pub tonemapper: u32,
    /// `BLOOM`: the bloom result is added.
    pub bloom: bool,
    /// `ENERGY`: what blooms is taken from the pixel it came from.
    pub energy: bool,
    /// `DEBUG`: 0 the picture, 1 the bloom alone, 2 the exposure histogram.
    pub debug: u32,
    /// `GRADE`: a `grading` option is away from its default.
    pub grade: bool,
    /// `VIGNETTE`: `vignette.intensity` is above 0.
    pub vignette: bool,
    /// `LUT`: a lookup table is set and `grading.lutIntensity` is above 0.
    pub lut: bool,
    /// `DIRT`: lens dirt is set, `bloom.dirtIntensity` is above 0 and
    /// there is bloom.
    pub dirt: bool,
}

/// The energy-conserving mode's mix towards the blur: `intensity`, at most 1.
fn energy_weight(settings: &Options) -> f32 {
    settings.bloom.intensity.min(1.0) as f32
}

impl Variant {
    /// The variant a frame of these settings, output and shape draws with.
    pub fn of(settings: &Options, output: &OutputSpec, info: &FrameInfo) -> Variant {
        let one_to_one = if info.size == info.output_size {
            crate::output::FLAG_ONE_TO_ONE
        } else {
            0
        };
        Variant {
            format: output.view_format,
            flags: output.shader_flags(settings.dither) | one_to_one,
            tonemapper: settings.tonemapper.shader_index(),
            bloom: info.bloom_levels > 0,
            energy: info.bloom_levels > 0 && settings.bloom.mode == BloomMode::EnergyConserving,
            debug: match settings.debug {
                DebugView::None => 0,
                DebugView::Bloom => 1,
                DebugView::Exposure => 2,
            },
            grade: graded(&settings.grading),
            vignette: settings.vignette.intensity > 0.0,
            lut: info.look.lut.is_some() && settings.grading.lut_intensity > 0.0,
            dirt: info.bloom_levels > 0
                && info.look.dirt.is_some()
                && settings.bloom.dirt_intensity > 0.0,
        }
    }
}

/// Whether the white balance, saturation or contrast is away from its
/// default (the table's mix is the `LUT` constant's business).
fn graded(g: &GradingOptions) -> bool {
    let identity = GradingOptions::default();
    (g.temperature, g.tint, g.saturation, g.contrast)
        != (
            identity.temperature,
            identity.tint,
            identity.saturation,
            identity.contrast,
        )
}

/// A table's domain as the scale and offset that take a display value to
/// [0, 1] across it, and its last index; zeros without a table.
fn lut_mapping(lut: Option<LutInfo>) -> ([f32; 3], [f32; 3], f32) {
    match lut {
        Some(l) => {
            let scale: [f32; 3] = std::array::from_fn(|i| 1.0 / (l.max[i] - l.min[i]));
            let offset = std::array::from_fn(|i| -l.min[i] * scale[i]);
            (scale, offset, (l.size - 1) as f32)
        }
        None => ([0.0; 3], [0.0; 3], 0.0),
    }
}

/// Frame to dirt texture coordinates around the centre, so that a dirt
/// texture of `dirt` texels covers an output of `output` pixels (scaled
/// to fill it, keeping its aspect ratio, the overflow cropped evenly).
fn dirt_scale(output: (u32, u32), dirt: Option<(u32, u32)>) -> [f32; 2] {
    let Some(dirt) = dirt else { return [1.0; 2] };
    let (ow, oh) = (output.0.max(1) as f64, output.1.max(1) as f64);
    let (dw, dh) = (dirt.0.max(1) as f64, dirt.1.max(1) as f64);
    let k = (ow / dw).max(oh / dh);
    [(ow / (k * dw)) as f32, (oh / (k * dh)) as f32]
}

/// The white balance of `grading.temperature` and `grading.tint` as a
/// matrix on linear sRGB (three columns, padded for WGSL): a von Kries
/// adaptation in the CAT02 cone space from a white on the CIE daylight
/// locus (temperature 0: 6504 K, D65; 1: 1.5 times the colour temperature,
/// a bluer white adapted to D65, so the picture warms; -1: two thirds of
/// it), moved across the locus by `tint` (positive: a greener white, so
/// the picture turns magenta). Both at 0 give the identity.
pub fn white_balance(temperature: f64, tint: f64) -> [[f32; 4]; 3] {
    // Linear sRGB (D65) to CIE XYZ, and CAT02.
    const SRGB_TO_XYZ: [[f64; 3]; 3] = [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ];
    const CAT02: [[f64; 3]; 3] = [
        [0.7328, 0.4296, -0.1624],
        [-0.7036, 1.6975, 0.0061],
        [0.0030, 0.0136, 0.9834],
    ];
    let lms_of_white = |t: f64, tint: f64| {
        let (x, y) = daylight_xy(6504.0 * 1.5f64.powf(t));
        let y = y + 0.02 * tint;
        mul(CAT02, [x / y, 1.0, (1.0 - x - y) / y])
    };
    let reference = lms_of_white(0.0, 0.0);
    let white = lms_of_white(temperature, tint);
    let gain: [[f64; 3]; 3] = std::array::from_fn(|i| {
        std::array::from_fn(|j| if i == j { reference[i] / white[i] } else { 0.0 })
    });
    let to_lms = matmul(CAT02, SRGB_TO_XYZ);
    let m = matmul(inverse(to_lms), matmul(gain, to_lms));
    // Column-major, each column padded to four floats.
    std::array::from_fn(|c| [m[0][c] as f32, m[1][c] as f32, m[2][c] as f32, 0.0])
}

/// The CIE daylight locus: chromaticity (x, y) of daylight at `kelvin`
/// (4000 to 25000 K).
fn daylight_xy(kelvin: f64) -> (f64, f64) {
    let t = kelvin.clamp(4000.0, 25000.0);
    let (t1, t2, t3) = (1e3 / t, 1e6 / (t * t), 1e9 / (t * t * t));
    let x = if t <= 7000.0 {
        -4.6070 * t3 + 2.9678 * t2 + 0.09911 * t1 + 0.244063
    } else {
        -2.0064 * t3 + 1.9018 * t2 + 0.24748 * t1 + 0.237040
    };
    (x, -3.0 * x * x + 2.87 * x - 0.275)
}

fn mul(m: [[f64; 3]; 3], v: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|i| m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2])
}

fn matmul(a: [[f64; 3]; 3], b: [[f64; 3]; 3]) -> [[f64; 3]; 3] {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum()))
}

/// The inverse of an invertible 3×3 matrix (by cofactors).
fn inverse(m: [[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let c = |i: usize, j: usize| {
        let (r0, r1) = ((i + 1) % 3, (i + 2) % 3);
        let (c0, c1) = ((j + 1) % 3, (j + 2) % 3);
        m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]
    };
    let det = m[0][0] * c(0, 0) + m[0][1] * c(0, 1) + m[0][2] * c(0, 2);
    std::array::from_fn(|i| std::array::from_fn(|j| c(j, i) / det))
}

pub const PASS: Registration = Registration {
    stage: Stage::Composite,
    make: Some(|gpu| Box::new(CompositePass::new(gpu))),
    #[cfg(feature = "fixtures")]
    shaders: || vec![("composite", crate::shaders::compose(SHADER_PARTS))],
    #[cfg(feature = "fixtures")]
    uniforms: || {
        vec![
            crate::pass::uniform_layout::<CompositeParams>(SHADER_PARTS),
            crate::pass::uniform_layout::<ExposureView>(SHADER_PARTS),
        ]
    },
};

pub struct CompositePass {
    layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    module: wgpu::ShaderModule,
    pipes: PipeCache<Variant>,
    sampler: wgpu::Sampler,
    params: FrameUniform,
    /// Auto exposure's histogram, for `debug: 'exposure'` (copied in from
    /// its pass each frame; zeros without it).
    exposure_view: wgpu::Buffer,
    /// Bound where no lookup table is set (never read then).
    no_lut: wgpu::TextureView,
}

/// The lookup table: a 3D texture read with `textureLoad` (rgba32float,
/// which WebGPU does not filter).
const LUT_TEXTURE: wgpu::BindingType = wgpu::BindingType::Texture {
    sample_type: wgpu::TextureSampleType::Float { filterable: false },
    view_dimension: wgpu::TextureViewDimension::D3,
    multisampled: false,
};

impl CompositePass {
    pub fn new(gpu: &Gpu) -> CompositePass {
        let module = shader_module(gpu, "composite shader", SHADER_PARTS);
        let layout = layout(
            gpu,
            "composite bind group layout",
            &[
                entry(0, FILTERABLE_TEXTURE),
                entry(1, FILTERING_SAMPLER),
                entry(2, UNIFORM),
                entry(3, FILTERABLE_TEXTURE),
                entry(4, FILTERABLE_TEXTURE),
                entry(5, UNIFORM),
                entry(6, LUT_TEXTURE),
                entry(7, FILTERABLE_TEXTURE),
            ],
        );
        let pipeline_layout = pipeline_layout(gpu, "composite pipeline layout", &[&layout]);
        CompositePass {
            layout,
            pipeline_layout,
            module,
            pipes: PipeCache::new(),
            sampler: linear_sampler(gpu, "composite sampler"),
            params: FrameUniform::new(
                gpu,
                "composite params",
                std::mem::size_of::<CompositeParams>(),
            ),
            exposure_view: uniform_buffer(
                gpu,
                "composite exposure view",
                std::mem::size_of::<ExposureView>(),
            ),
            no_lut: gpu
                .device
                .create_texture(&wgpu::TextureDescriptor {
                    label: Some("no lut"),
                    size: wgpu::Extent3d {
                        width: 1,
                        height: 1,
                        depth_or_array_layers: 1,
                    },
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D3,
                    format: wgpu::TextureFormat::Rgba32Float,
                    usage: wgpu::TextureUsages::TEXTURE_BINDING,
                    view_formats: &[],
                })
                .create_view(&Default::default()),
        }
    }

    /// The pipeline specialised for `v`, made on first use.
    fn pipe(&self, gpu: &Gpu, v: Variant) -> Pipe {
        self.pipes.get(v, || {
            pipeline(
                gpu,
                &PipeDesc {
                    label: "composite pipeline",
                    layout: &self.pipeline_layout,
                    module: &self.module,
                    vertex_entry: "vs_fullscreen",
                    fragment_entry: "fs_composite",
                    color_format: v.format,
                    blend: Blend::Replace,
                    depth: None,
                    samples: 1,
                    constants: &[
                        ("FLAGS", f64::from(v.flags)),
                        ("TONEMAPPER", f64::from(v.tonemapper)),
                        ("BLOOM", if v.bloom { 1.0 } else { 0.0 }),
                        ("ENERGY", if v.energy { 1.0 } else { 0.0 }),
                        ("DEBUG", v.debug as f64),
                        ("GRADE", if v.grade { 1.0 } else { 0.0 }),
                        ("VIGNETTE", if v.vignette { 1.0 } else { 0.0 }),
                        ("LUT", if v.lut { 1.0 } else { 0.0 }),
                        ("DIRT", if v.dirt { 1.0 } else { 0.0 }),
                    ],
                },
            )
        })
    }

    /// Pipelines made so far (one per variant used; the tests count them).
    #[cfg(feature = "fixtures")]
    pub fn variants(&self) -> usize {
        self.pipes.len()
    }

    fn bind(
        &self,
        gpu: &Gpu,
        hdr: &wgpu::TextureView,
        bloom: &wgpu::TextureView,
        bright_source: &wgpu::TextureView,
        lut: &wgpu::TextureView,
        dirt: &wgpu::TextureView,
    ) -> wgpu::BindGroup {
        let params = self.params.current();
        gpu.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("composite bind group"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(hdr),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: params.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: wgpu::BindingResource::TextureView(bloom),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: wgpu::BindingResource::TextureView(bright_source),
                },
                wgpu::BindGroupEntry {
                    binding: 5,
                    resource: self.exposure_view.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 6,
                    resource: wgpu::BindingResource::TextureView(lut),
                },
                wgpu::BindGroupEntry {
                    binding: 7,
                    resource: wgpu::BindingResource::TextureView(dirt),
                },
            ],
        })
    }
}

impl Pass for CompositePass {
    /// Reads the current HDR image and the bloom result, writes the output.
    fn build(&self, f: &mut FrameBuilder<'_>) -> Result<(), Error> {
        let hdr = f.hdr("composite")?;
        let params = self.params.renew(f.gpu);
        // An exposure metered on the GPU replaces the uniform's before the
        // pass runs.
        if let Some(exposure) = f.exposure.clone() {
            let offset = std::mem::offset_of!(CompositeParams, exposure) as u64;
            f.copy_before(&exposure, &params, offset, 4);
        }
        if let (DebugView::Exposure, Some(view)) = (f.settings.debug, f.exposure_view.clone()) {
            let size = std::mem::size_of::<ExposureView>() as u64;
            f.copy_before(&view, &self.exposure_view, 0, size);
        }
        // Without bloom the HDR image stands in for the bloom binding; the
        // shader does not sample it (bloom scale 0).
        let bloom = f.bloom.as_ref().map_or(hdr.clone(), |b| b.image.clone());
        // What bloomed (the energy-conserving mode takes it back): the
        // caller's bloom texture, or the HDR image itself.
        let source = f.bloom_source.clone().unwrap_or_else(|| hdr.clone());
        // The look's textures are read-only for the whole frame, outside
        // its graph; where one is not set, a stand-in that is not read.
        let lut = f.look.lut.as_ref().unwrap_or(&self.no_lut);
        let dirt = f.look.dirt.as_ref().unwrap_or(&hdr.view);
        let group = self.bind(f.gpu, &hdr.view, &bloom.view, &source.view, lut, dirt);
        let pipe = self.pipe(f.gpu, Variant::of(f.settings, f.output, &f.info));
        f.fullscreen(
            "composite".into(),
            &pipe,
            group,
            None,
            &[&hdr, &bloom, &source],
            false,
        );
        Ok(())
    }

    fn write_params(
        &self,
        queue: &wgpu::Queue,
        settings: &Options,
        output: &OutputSpec,
        info: &FrameInfo,
    ) {
        let (lut_scale, lut_offset, lut_last) = lut_mapping(info.look.lut);
        let params = CompositeParams {
            exposure: settings.exposure as f32,
            bloom_uv: super::bloom::coverage(info.size, info.bloom_extent),
            bloom_scale: if info.bloom_levels == 0 {
                0.0
            } else {
                let weight = match settings.bloom.mode {
                    BloomMode::Additive => settings.bloom.intensity as f32,
                    BloomMode::EnergyConserving => energy_weight(settings),
                };
                weight / info.bloom_levels as f32
            },
            headroom: match output.tone_mapping {
                crate::options::ToneMapping::Extended => settings.canvas.headroom as f32,
                crate::options::ToneMapping::Standard => 1.0,
            },
            threshold: settings.bloom.threshold as f32,
            knee: (settings.bloom.threshold * settings.bloom.knee) as f32,
            bloom_subtract: match settings.bloom.mode {
                BloomMode::EnergyConserving if info.bloom_levels > 0 => energy_weight(settings),
                _ => 0.0,
            },
            white_balance: white_balance(settings.grading.temperature, settings.grading.tint),
            saturation: settings.grading.saturation as f32,
            contrast: settings.grading.contrast as f32,
            vignette_intensity: settings.vignette.intensity as f32,
            vignette_radius: settings.vignette.radius as f32,
            // Never 0: the shader divides by it.
            vignette_smoothness: settings.vignette.smoothness.max(1e-3) as f32,
            aspect: info.output_size.0.max(1) as f32 / info.output_size.1.max(1) as f32,
            lut_intensity: settings.grading.lut_intensity as f32,
            dirt_intensity: settings.bloom.dirt_intensity as f32,
            lut_scale,
            lut_last,
            lut_offset,
            _pad1: 0.0,
            dirt_scale: dirt_scale(info.output_size, info.look.dirt),
            _pad2: [0.0; 2],
        };
        self.params.write(queue, bytemuck::bytes_of(&params));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(m: [[f32; 4]; 3], rgb: [f64; 3]) -> [f64; 3] {
        std::array::from_fn(|i| (0..3).map(|c| m[c][i] as f64 * rgb[c]).sum())
    }

    #[test]
    fn white_balance_is_the_identity_at_zero() {
        let m = white_balance(0.0, 0.0);
        for (c, column) in m.iter().enumerate() {
            for (r, v) in column.iter().take(3).enumerate() {
                let want = if r == c { 1.0 } else { 0.0 };
                assert!((v - want).abs() < 1e-6, "({r}, {c}): {v}");
            }
        }
    }

    #[test]
    fn warmer_is_redder_and_magenta_is_less_green() {
        let grey = [0.5, 0.5, 0.5];
        let warm = apply(white_balance(1.0, 0.0), grey);
        assert!(warm[0] > 0.55 && warm[2] < 0.45, "{warm:?}");
        let cool = apply(white_balance(-1.0, 0.0), grey);
        assert!(cool[0] < 0.47 && cool[2] > 0.53, "{cool:?}");
        let magenta = apply(white_balance(0.0, 1.0), grey);
        assert!(magenta[1] < magenta[0] && magenta[1] < magenta[2], "{magenta:?}");
        // Any grey stays a grey of the same hue family: the matrix is linear.
        let bright = apply(white_balance(1.0, 0.0), [5.0, 5.0, 5.0]);
        assert!((bright[0] / warm[0] - 10.0).abs() < 1e-9);
    }
}
