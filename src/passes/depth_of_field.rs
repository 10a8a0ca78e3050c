//! Depth of field (`depthOfField`): a thin-lens camera's blur from the
//! depth the caller gives with its scene, between the scene and the bloom,
//! so the bloom and auto exposure see the blurred light (a bright point out
//! of focus blooms as the disc it became). Compute passes, each writing its
//! image a pixel per invocation (`FrameBuilder::compute_image`): four at half resolution
//! (the colour and circle of confusion of each 2×2 box, the near field's
//! reach per tile, the near field's gather, the far field's) and one at
//! full resolution that puts each
//! pixel back together by its own circle of confusion into the next HDR
//! image (`FrameBuilder::swap_hdr`). Why the fields are gathered apart is
//! in `shaders/depth_of_field.wgsl`.
//!
//! Half resolution keeps it cheap: the gathers read a quarter of the
//! texels, and a blur of a few pixels or more hides the coarser grid; the
//! full-resolution pass keeps every pixel in focus exactly as it was. With
//! `debug: 'coc'` one full-resolution pass writes the circle of confusion
//! instead. Without depth (or off) no pass runs, and [`state`] says why:
//! the one place that decides, read by the chain for `stats()` and
//! [`crate::PostChain::depth_of_field`].

use crate::error::Error;
use crate::frame::{DepthImage, FrameBuilder, FrameInfo, Image};
use crate::gpu::Gpu;
use crate::options::{DebugView, Options};
use crate::output::OutputSpec;
use crate::pass::{
    compute_pipeline, entry, layout, linear_sampler, pipeline_layout, storage_entry, uniform,
    FrameUniform, Pass, PipeCache, Registration, Stage, FILTERABLE_TEXTURE, FILTERING_SAMPLER,
    UNIFORM,
};
use crate::texture_rules::DepthKind;

/// What depth of field does in a frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DepthOfFieldState {
    /// `depth_of_field.enabled` is off: no pass runs.
    #[default]
    Off,
    /// On, blurring the scene by its depth.
    On,
    /// On, but the scene came with no depth: no pass runs and the picture
    /// is the sharp one (the demo scene, a shader, an image, or a texture
    /// given without depth).
    NoDepth,
}

impl DepthOfFieldState {
    /// As `stats().depthOfField` spells it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            DepthOfFieldState::Off => "off",
            DepthOfFieldState::On => "on",
            DepthOfFieldState::NoDepth => "no-depth",
        }
    }
}

/// What depth of field does with these settings, for a scene that comes
/// with depth or without.
pub fn state(settings: &Options, depth: bool) -> DepthOfFieldState {
    match (settings.depth_of_field.enabled, depth) {
        (false, _) => DepthOfFieldState::Off,
        (true, false) => DepthOfFieldState::NoDepth,
        (true, true) => DepthOfFieldState::On,
    }
}

/// The passes' WGSL after the reading of `kind`'s depth, and its
/// module's label.
fn parts(kind: DepthKind) -> (&'static str, [&'static str; 2]) {
    let (label, depth) = match kind {
        DepthKind::Buffer => (
            "depth of field (depth buffer)",
            wgsl!("dof_depth_buffer.wgsl"),
        ),
        DepthKind::Multisampled => (
            "depth of field (multisampled depth buffer)",
            wgsl!("dof_depth_multisampled.wgsl"),
        ),
        DepthKind::Linear => ("depth of field (linear)", wgsl!("dof_depth_linear.wgsl")),
    };
    (label, [depth, wgsl!("depth_of_field.wgsl")])
}

/// The height the `max_blur` option is given for.
pub const REFERENCE_HEIGHT: f64 = 1080.0;

/// The format of the half-resolution layers: light above 1, and in the
/// prepared image's alpha a signed radius.
const LAYER_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

const TARGET_USAGE: wgpu::TextureUsages =
    wgpu::TextureUsages::STORAGE_BINDING.union(wgpu::TextureUsages::TEXTURE_BINDING);

pub const PASS: Registration = Registration {
    stage: Stage::HdrEffect,
    make: Some(|gpu| Box::new(DepthOfFieldPass::new(gpu))),
    #[cfg(test)]
    shaders: || {
        let kinds = [
            DepthKind::Buffer,
            DepthKind::Multisampled,
            DepthKind::Linear,
        ];
        kinds
            .map(|kind| {
                let (label, parts) = parts(kind);
                (label, source(&parts))
            })
            .to_vec()
    },
    #[cfg(test)]
    uniforms: || {
        let (_, parts) = parts(DepthKind::Buffer);
        vec![crate::pass::uniform_layout::<DofParams>(&parts)]
    },
};

uniform! {
    /// `DofParams` in depth_of_field.wgsl (layout checked by src/tests/shaders.rs).
    struct DofParams {
        near: f32,
        far: f32,
        focus: f32,
        lens: f32,
        max_coc: f32,
        _pad0: u32,
        orthographic: u32,
        reversed: u32,
        tile: u32,
        _pad1: u32,
        _pad2: u32,
        _pad3: u32,
    }
}

/// The stages, each a compute entry point of the shader.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Step {
    Prepare,
    Tiles,
    /// A gather with this many rings.
    Near(u32),
    Far(u32),
    Combine,
    Coc,
}

impl Step {
    /// Every stage once (a gather's rings are set per pipeline).
    const ALL: [Step; 6] = [
        Step::Prepare,
        Step::Tiles,
        Step::Near(0),
        Step::Far(0),
        Step::Combine,
        Step::Coc,
    ];

    /// The pass's name (its pipeline's label too), its entry point and the
    /// function the entry point stores (`shaders::image_entry`).
    fn entry(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Step::Prepare => ("depth of field prepare", "cs_dof_prepare", "fx_dof_prepare"),
            Step::Tiles => ("depth of field tiles", "cs_dof_tiles", "fx_dof_tiles"),
            Step::Near(_) => ("depth of field near", "cs_dof_near", "fx_dof_near"),
            Step::Far(_) => ("depth of field far", "cs_dof_far", "fx_dof_far"),
            Step::Combine => ("depth of field combine", "cs_dof_combine", "fx_dof_combine"),
            Step::Coc => ("depth of field coc", "cs_dof_coc", "fx_dof_coc"),
        }
    }

    /// What the pass writes, as its binding in group 1 and its index in
    /// the pass's group-1 layouts: an image (0) or the tiles (1).
    fn out(self) -> usize {
        usize::from(self == Step::Tiles)
    }
}

/// A module's WGSL: `parts`, what the passes write (group 1: an image at
/// binding 0, the tiles at 1) and every pass's entry point.
fn source(parts: &[&str]) -> String {
    let mut s = crate::shaders::compose(parts);
    crate::shaders::declare_image_out(&mut s, 1, 0, "fx_dof_out", LAYER_FORMAT);
    crate::shaders::declare_image_out(&mut s, 1, 1, "fx_dof_tiles_out", TILE_FORMAT);
    for step in Step::ALL {
        let (_, entry, function) = step.entry();
        let out = ["fx_dof_out", "fx_dof_tiles_out"][step.out()];
        s.push_str(&crate::shaders::image_entry(entry, function, out));
    }
    s
}

/// What one kind of depth texture needs: its module and layouts.
struct Reader {
    module: wgpu::ShaderModule,
    /// What every pass reads (group 0: 0 to 7).
    layout: wgpu::BindGroupLayout,
    /// With a layer or the next HDR image written (group 1), and with the
    /// tiles written.
    pipeline_layouts: [wgpu::PipelineLayout; 2],
}

pub struct DepthOfFieldPass {
    /// One per kind of depth texture, made when a frame first reads that
    /// kind.
    readers: PipeCache<DepthKind, std::sync::Arc<Reader>>,
    /// Group 1: the image a pass writes (`dof_out`: a layer, the next HDR
    /// image), and the tiles (`dof_tiles_out`).
    out_layouts: [wgpu::BindGroupLayout; 2],
    sampler: wgpu::Sampler,
    params: FrameUniform,
    /// By step and depth kind.
    pipes: PipeCache<(Step, DepthKind), wgpu::ComputePipeline>,
}

impl Reader {
    fn new(gpu: &Gpu, kind: DepthKind, outs: &[wgpu::BindGroupLayout; 2]) -> Reader {
        let (label, parts) = parts(kind);
        // The tiles, r32float, are loaded, never filtered.
        let unfilterable = wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: false },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        };
        let layout = layout(
            gpu,
            "depth of field bind group layout",
            &[
                entry(0, FILTERABLE_TEXTURE),
                entry(1, kind.binding()),
                entry(2, UNIFORM),
                entry(3, FILTERABLE_TEXTURE),
                entry(4, FILTERABLE_TEXTURE),
                entry(5, FILTERING_SAMPLER),
                entry(6, FILTERABLE_TEXTURE),
                entry(7, unfilterable),
            ],
        );
        let with = |out| pipeline_layout(gpu, "depth of field pipeline layout", &[&layout, out]);
        Reader {
            module: gpu.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source(&parts).into()),
            }),
            pipeline_layouts: [with(&outs[0]), with(&outs[1])],
            layout,
        }
    }
}

impl DepthOfFieldPass {
    fn new(gpu: &Gpu) -> DepthOfFieldPass {
        // The images the passes write: layers and the HDR image share a
        // format (the test `the_layers_have_the_hdr_images_format`), the
        // tiles have one of their own.
        DepthOfFieldPass {
            readers: PipeCache::new(),
            out_layouts: [
                layout(
                    gpu,
                    "depth of field image",
                    &[storage_entry(0, LAYER_FORMAT)],
                ),
                layout(
                    gpu,
                    "depth of field tiles",
                    &[storage_entry(1, TILE_FORMAT)],
                ),
            ],
            sampler: linear_sampler(gpu, "depth of field sampler"),
            params: FrameUniform::new(
                gpu,
                "depth of field params",
                std::mem::size_of::<DofParams>(),
            ),
            pipes: PipeCache::new(),
        }
    }

    fn reader(&self, gpu: &Gpu, kind: DepthKind) -> std::sync::Arc<Reader> {
        self.readers.get(kind, || {
            std::sync::Arc::new(Reader::new(gpu, kind, &self.out_layouts))
        })
    }

    fn pipe(&self, gpu: &Gpu, step: Step, kind: DepthKind) -> wgpu::ComputePipeline {
        self.pipes.get((step, kind), || {
            let reader = self.reader(gpu, kind);
            let layout = &reader.pipeline_layouts[step.out()];
            let (label, entry, _) = step.entry();
            // The gathers' rings, given to the gathers alone: a browser
            // may refuse a constant its entry point does not use.
            let rings;
            let constants: &[(&str, f64)] = match step {
                Step::Near(r) | Step::Far(r) => {
                    rings = [("RINGS", f64::from(r))];
                    &rings
                }
                _ => &[],
            };
            compute_pipeline(gpu, label, layout, &reader.module, entry, constants)
        })
    }

    /// The bind groups of `step`, which writes `target`: what every pass
    /// reads, `views` (the image, the depth, the near and far layers, the
    /// prepared image and the tiles; what a pass does not read, or has
    /// not been made yet, is stood in for by an image it does not write),
    /// then what it writes.
    fn bind(
        &self,
        gpu: &Gpu,
        step: Step,
        kind: DepthKind,
        views: [&wgpu::TextureView; 6],
        target: &wgpu::TextureView,
    ) -> Vec<wgpu::BindGroup> {
        let texture = |binding, view| wgpu::BindGroupEntry {
            binding,
            resource: wgpu::BindingResource::TextureView(view),
        };
        let [image, depth, near, far, half, tiles] = views;
        let label = Some(step.entry().0);
        let reads = gpu.create_bind_group(&wgpu::BindGroupDescriptor {
            label,
            layout: &self.reader(gpu, kind).layout,
            entries: &[
                texture(0, image),
                texture(1, depth),
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: self.params.current().as_entire_binding(),
                },
                texture(3, near),
                texture(4, far),
                wgpu::BindGroupEntry {
                    binding: 5,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
                texture(6, half),
                texture(7, tiles),
            ],
        });
        let out = step.out();
        let writes = gpu.create_bind_group(&wgpu::BindGroupDescriptor {
            label,
            layout: &self.out_layouts[out],
            entries: &[texture(out as u32, target)],
        });
        vec![reads, writes]
    }

    /// `debug: 'coc'`: the circle of confusion written as the next HDR image.
    fn build_coc_view(&self, f: &mut FrameBuilder<'_>, depth: &DepthImage) -> Result<(), Error> {
        let (src, dst) = f.swap_hdr("depth of field coc")?;
        let s = &src.view;
        let views = [s, &depth.image.view, s, s, s, s];
        let groups = self.bind(f.gpu, Step::Coc, depth.kind, views, &dst.view);
        let pipe = self.pipe(f.gpu, Step::Coc, depth.kind);
        let name = Step::Coc.entry().0.into();
        f.compute_image(name, &pipe, groups, &dst, &[&depth.image]);
        f.info.view_in_hdr = true;
        Ok(())
    }

    /// The five passes of the blur, then four more for the bloom's own
    /// image where the frame has one (the caller's bloom texture, the
    /// scene's emissive light): it blurs as the scene does, so an object
    /// out of focus glows as the disc it became, and the energy-conserving
    /// bloom takes back the light it gave from where it now lies.
    fn build_blur(&self, f: &mut FrameBuilder<'_>, depth: &DepthImage) -> Result<(), Error> {
        let size = f.size();
        let half = half_size(size);
        let max_coc = max_coc(&f.settings.depth_of_field, size.1);
        let layer = |f: &mut FrameBuilder<'_>, label: &str, size, format| -> Result<Image, Error> {
            let tex = f.texture(label, size, format, 1, 1, TARGET_USAGE)?;
            Ok(f.view(&tex, 0))
        };
        let layers = Layers {
            prepared: layer(f, "depth of field half", half, LAYER_FORMAT)?,
            tiles: layer(
                f,
                "depth of field tiles",
                tiles_size(half, tile_side(max_coc)),
                TILE_FORMAT,
            )?,
            near: layer(f, "depth of field near", half, LAYER_FORMAT)?,
            far: layer(f, "depth of field far", half, LAYER_FORMAT)?,
            rings: rings(max_coc),
        };
        let (src, dst) = f.swap_hdr("depth of field")?;
        let bloom = match f.slots.bloom_source.clone() {
            Some(source) => Some((
                source,
                layer(f, "depth of field bloom", size, LAYER_FORMAT)?,
            )),
            None => None,
        };
        self.blur(f, depth, &layers, (&src, &dst), true);
        if let Some((source, blurred)) = bloom {
            // The tiles hold the circles of confusion, the same for both.
            self.blur(f, depth, &layers, (&source, &blurred), false);
            f.slots.bloom_source = Some(blurred);
        }
        Ok(())
    }

    /// The blur of `image.0` into `image.1` through `layers`, the tiles
    /// made first where `tiles`.
    fn blur(
        &self,
        f: &mut FrameBuilder<'_>,
        depth: &DepthImage,
        layers: &Layers,
        image: (&Image, &Image),
        tiles: bool,
    ) {
        let (gpu, kind, d) = (f.gpu, depth.kind, &depth.image);
        let Layers {
            prepared,
            tiles: t,
            near,
            far,
            rings,
        } = layers;
        let (src, dst) = image;
        // Each pass: the images it reads, as `bind` takes them, what it
        // writes, and what it samples.
        let s = &src.view;
        let (p, n) = (&prepared.view, &near.view);
        let passes: [(Step, _, _, &[&Image]); 5] = [
            (Step::Prepare, [s, &d.view, s, s, s, s], prepared, &[src, d]),
            (Step::Tiles, [s, &d.view, s, s, p, s], t, &[prepared]),
            (
                Step::Near(*rings),
                [s, &d.view, s, s, p, &t.view],
                near,
                &[prepared, t],
            ),
            (
                Step::Far(*rings),
                [s, &d.view, s, s, p, &t.view],
                far,
                &[prepared, t],
            ),
            (
                Step::Combine,
                [s, &d.view, n, &far.view, p, &t.view],
                dst,
                &[src, d, near, far],
            ),
        ];
        for (step, views, target, sampled) in passes {
            if step == Step::Tiles && !tiles {
                continue;
            }
            let pipe = self.pipe(gpu, step, kind);
            let groups = self.bind(gpu, step, kind, views, &target.view);
            let name = step.entry().0.into();
            f.compute_image(name, &pipe, groups, target, sampled);
        }
    }
}

/// The half-resolution images of a blur and its gathers' rings.
struct Layers {
    prepared: Image,
    tiles: Image,
    near: Image,
    far: Image,
    rings: u32,
}

/// The format of the near field's tiles: one radius each (the narrowest
/// single channel compute may store).
const TILE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;

/// Half-resolution texels per tile side: at least the near gather's
/// largest reach (so the 3×3 tiles around a texel hold every near texel
/// that reaches it), and 8 at least (few tiles to read).
pub fn tile_side(max_coc: f64) -> u32 {
    ((max_coc / 4.0).ceil() as u32).max(8)
}

/// The tiles covering the half-resolution layers.
pub fn tiles_size(half: (u32, u32), side: u32) -> (u32, u32) {
    (half.0.div_ceil(side).max(1), half.1.div_ceil(side).max(1))
}

/// The half-resolution layers' size: every 2×2 box of the frame, the last
/// ones partial.
pub fn half_size(size: (u32, u32)) -> (u32, u32) {
    (size.0.div_ceil(2).max(1), size.1.div_ceil(2).max(1))
}

/// The largest circle of confusion in pixels of an image `height` high.
pub fn max_coc(o: &crate::options::DepthOfFieldOptions, height: u32) -> f64 {
    o.max_blur * height as f64 / REFERENCE_HEIGHT
}

/// Rings of a gather reaching the largest circle of confusion, so that
/// taps stay about 1.5 half-resolution pixels apart: 3 rings (49 taps) at
/// the default 16 pixels at 1080p, from 2 to [`MOST_RINGS`].
pub fn rings(max_coc: f64) -> u32 {
    let radius = max_coc / 4.0;
    ((radius / 1.5).ceil() as u32).clamp(2, MOST_RINGS)
}

/// The most rings a gather takes: 1089 taps, reached from a blur of about 90
/// pixels at 1080p; at the largest (128) the taps are 2 half-resolution
/// pixels apart, close enough that a bright point still blurs into a
/// disc rather than a pattern of dots. Beyond 1080p they spread further.
const MOST_RINGS: u32 = 16;

/// `K` of the thin lens in pixels of an image `height` high: a point at
/// distance `z` images as a disc of `K (1 - focus / z)` pixels (signed:
/// negative in front of the focus).
pub fn lens_scale(o: &crate::options::DepthOfFieldOptions, height: u32) -> f64 {
    let f = o.focal_length;
    // The options refuse a focus within the focal length.
    let beyond = (o.focus_distance - f).max(f * 1e-6);
    f * f / (o.f_stop * beyond) / o.sensor_height * height as f64
}

impl Pass for DepthOfFieldPass {
    fn build(&self, f: &mut FrameBuilder<'_>) -> Result<(), Error> {
        let coc_view = f.settings.debug == DebugView::Coc;
        let on = state(f.settings, f.slots.depth.is_some()) == DepthOfFieldState::On;
        let Some(depth) = f.slots.depth.clone().filter(|_| on || coc_view) else {
            return Ok(());
        };
        self.params.renew(f.gpu);
        if coc_view {
            self.build_coc_view(f, &depth)
        } else {
            self.build_blur(f, &depth)
        }
    }

    fn write_params(
        &self,
        queue: &wgpu::Queue,
        settings: &Options,
        _output: &OutputSpec,
        info: &FrameInfo,
    ) {
        let o = &settings.depth_of_field;
        let height = info.size.1;
        let max_coc = max_coc(o, height);
        let camera = info.camera;
        let params = DofParams {
            near: camera.map_or(0.0, |c| c.near),
            far: camera.map_or(1.0, |c| c.far),
            focus: o.focus_distance as f32,
            lens: lens_scale(o, height) as f32,
            max_coc: max_coc as f32,
            _pad0: 0,
            orthographic: u32::from(camera.is_some_and(|c| c.orthographic)),
            reversed: u32::from(camera.is_some_and(|c| c.reversed_z)),
            tile: tile_side(max_coc),
            _pad1: 0,
            _pad2: 0,
            _pad3: 0,
        };
        self.params.write(queue, bytemuck::bytes_of(&params));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gather_keeps_its_taps_close() {
        assert_eq!(rings(16.0), 3, "the default at 1080p");
        assert_eq!(rings(0.0), 2);
        assert_eq!(rings(24.0), 4);
        // The largest blur at 1080p, and at 2160p (capped).
        assert_eq!(rings(128.0), 16);
        assert_eq!(rings(256.0), 16);
        assert_eq!(half_size((1921, 1)), (961, 1));
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn each_step_has_one_pipeline_per_kind_of_depth() {
        let gpu = pollster::block_on(crate::headless::vulkan_gpu()).expect("a Vulkan device");
        let pass = DepthOfFieldPass::new(&gpu);
        let kinds = [
            DepthKind::Buffer,
            DepthKind::Multisampled,
            DepthKind::Linear,
        ];
        for kind in kinds {
            for step in [Step::Tiles, Step::Near(3), Step::Far(3), Step::Combine] {
                pass.pipe(&gpu, step, kind);
                pass.pipe(&gpu, step, kind);
            }
        }
        assert_eq!(
            pass.pipes.len(),
            12,
            "one per step and kind of depth, made once"
        );
    }

    #[test]
    fn the_layers_have_the_hdr_images_format() {
        // The combine writes the next HDR image through the layers' layout.
        assert_eq!(LAYER_FORMAT, crate::frame::HDR_FORMAT);
    }

    #[test]
    fn the_thin_lens_blurs_infinity_by_its_scale() {
        let mut o = crate::options::Options::default().depth_of_field;
        (o.focal_length, o.f_stop, o.focus_distance, o.sensor_height) = (0.05, 2.0, 5.0, 0.024);
        // f² / (N (s − f)) on the sensor, over its height, in 1080 pixels.
        let k = lens_scale(&o, 1080);
        let want = 0.0025 / (2.0 * 4.95) / 0.024 * 1080.0;
        assert!((k - want).abs() < 1e-9, "{k} vs {want}");
    }
}
