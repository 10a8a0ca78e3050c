//! Scene pass: the content, drawn into the HDR target. With `msaa: 4` it
//! renders into a 4× multisampled color and depth attachment whose color is
//! resolved into the HDR target at the end of the pass (or stored for the
//! tonemap-aware resolve pass); with `msaa: 1` straight into the HDR target.
//!
//! Content kinds share one shader module and one uniform buffer; each kind
//! has its pipeline, built for the current sample count. Every pipeline
//! carries the depth state, since the pass always has a depth attachment.

use bytemuck::{Pod, Zeroable};

use super::{
    entry, layout, linear_sampler, pipeline, pipeline_layout, shader_module, uniform_buffer, Blend,
    Pipe, PipeDesc, FILTERABLE_TEXTURE, FILTERING_SAMPLER, UNIFORM,
};
use crate::error::Error;
use crate::gpu::Gpu;
use crate::targets::HDR_FORMAT;

/// The WGSL of the scene pass after the full-screen stage.
pub const SHADER_PARTS: &[&str] = &[
    include_str!("../../shaders/scene_params.wgsl"),
    include_str!("../../shaders/scene.wgsl"),
];

/// Depth of the scene pass. Only tested against, never sampled: its store
/// op is discard and it can be a transient attachment.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth24Plus;

/// Number of cubes in the demo scene.
pub const DEMO_INSTANCES: u32 = 120;

/// An image given as linear premultiplied RGBA floats, row by row.
#[derive(Clone, Debug, PartialEq)]
pub struct PixelImage {
    pub width: u32,
    pub height: u32,
    pub data: Vec<[f32; 4]>,
}

/// An uploaded image (straight alpha, sRGB texture) and its multiplier.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageContent {
    pub texture: wgpu::Texture,
    /// Multiplies the decoded linear colour, so highlights can bloom.
    pub gain: f32,
}

/// What the scene pass draws.
#[derive(Clone, Debug, PartialEq)]
pub enum Content {
    /// The built-in demo: instanced emissive cubes, emission 0.1 to 40.
    DemoScene,
    /// An animated full-screen HDR pattern.
    Pattern,
    /// One premultiplied linear colour everywhere.
    Solid([f32; 4]),
    /// One tilted square of a premultiplied linear colour on transparent
    /// black: geometric edges for antialiasing tests.
    Shape([f32; 4]),
    /// An image, one texel per output pixel (nearest), values as given
    /// (HDR, NaN and Inf included).
    Pixels(PixelImage),
    /// An uploaded image fitted inside the target (contain), times a gain.
    Image(ImageContent),
    /// WGSL defining `fn scene(uv: vec2f, time: f32) -> vec4f`.
    Shader(String),
}

/// The WGSL placed before a user's scene shader.
pub fn user_prefix() -> String {
    format!(
        "{}\n{}\n{}\n",
        super::FULLSCREEN_WGSL,
        include_str!("../../shaders/scene_params.wgsl"),
        include_str!("../../shaders/user_prelude.wgsl")
    )
}

/// The WGSL placed after a user's scene shader.
pub const USER_SUFFIX: &str = include_str!("../../shaders/user_entry.wgsl");

/// A user's shader, compiled, with its pipeline for the current sample count.
pub struct UserShader {
    pub source: String,
    pub module: wgpu::ShaderModule,
    pipe: Pipe,
}

/// Keep in sync with `SceneParams` in scene_params.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct SceneParams {
    color: [f32; 4],
    time: f32,
    aspect: f32,
    gain: f32,
    image_aspect: f32,
    resolution: [f32; 2],
    instances: u32,
    _pad: u32,
}

struct Pipes {
    scene: Pipe,
    shape: Pipe,
    solid: Pipe,
    pattern: Pipe,
    pixels: Pipe,
    image: Pipe,
}

pub struct ScenePass {
    module: wgpu::ShaderModule,
    base_layout: wgpu::PipelineLayout,
    pixels_layout: wgpu::PipelineLayout,
    image_layout: wgpu::PipelineLayout,
    pixels_group_layout: wgpu::BindGroupLayout,
    image_group_layout: wgpu::BindGroupLayout,
    image_sampler: wgpu::Sampler,
    params: wgpu::Buffer,
    params_group: wgpu::BindGroup,
    pipes: Pipes,
    samples: u32,
    content: Content,
    /// The compiled shader of `Content::Shader`.
    user: Option<UserShader>,
    /// Group 1 of `Content::Pixels` and `Content::Image`.
    content_group: Option<wgpu::BindGroup>,
}

impl ScenePass {
    pub fn new(gpu: &Gpu, samples: u32) -> ScenePass {
        let module = shader_module(&gpu.device, "scene shader", SHADER_PARTS);
        let params_layout = layout(gpu, "scene params layout", &[entry(0, UNIFORM)]);
        let pixels_group_layout = layout(
            gpu,
            "scene pixels layout",
            &[entry(
                0,
                wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: false },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
            )],
        );
        let image_group_layout = layout(
            gpu,
            "scene image layout",
            &[entry(1, FILTERABLE_TEXTURE), entry(2, FILTERING_SAMPLER)],
        );
        let base_layout = pipeline_layout(gpu, "scene pipeline layout", &[&params_layout]);
        let image_layout = pipeline_layout(
            gpu,
            "scene image pipeline layout",
            &[&params_layout, &image_group_layout],
        );
        let pixels_layout = pipeline_layout(
            gpu,
            "scene pixels pipeline layout",
            &[&params_layout, &pixels_group_layout],
        );
        let params = uniform_buffer(gpu, "scene params", std::mem::size_of::<SceneParams>());
        let params_group = gpu.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("scene params bind group"),
            layout: &params_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: params.as_entire_binding(),
            }],
        });
        let pipes = Self::pipes(
            gpu,
            &module,
            [&base_layout, &pixels_layout, &image_layout],
            samples,
        );
        ScenePass {
            module,
            base_layout,
            pixels_layout,
            image_layout,
            pixels_group_layout,
            image_group_layout,
            image_sampler: linear_sampler(gpu, "scene image sampler"),
            params,
            params_group,
            pipes,
            samples,
            content: Content::DemoScene,
            user: None,
            content_group: None,
        }
    }

    fn pipes(
        gpu: &Gpu,
        module: &wgpu::ShaderModule,
        [base, pixels, image]: [&wgpu::PipelineLayout; 3],
        samples: u32,
    ) -> Pipes {
        let make = |label: &str, layout, vs, fs, depth_test| {
            pipeline(
                gpu,
                &PipeDesc {
                    label,
                    layout,
                    module,
                    vertex_entry: vs,
                    fragment_entry: fs,
                    color_format: HDR_FORMAT,
                    blend: Blend::Replace,
                    depth: Some((DEPTH_FORMAT, depth_test)),
                    samples,
                },
            )
        };
        Pipes {
            scene: make("scene: demo pipeline", base, "vs_scene", "fs_scene", true),
            shape: make("scene: shape pipeline", base, "vs_shape", "fs_solid", false),
            solid: make(
                "scene: solid pipeline",
                base,
                "vs_fullscreen",
                "fs_solid",
                false,
            ),
            pattern: make(
                "scene: pattern pipeline",
                base,
                "vs_fullscreen",
                "fs_pattern",
                false,
            ),
            pixels: make(
                "scene: pixels pipeline",
                pixels,
                "vs_fullscreen",
                "fs_pixels",
                false,
            ),
            image: make(
                "scene: image pipeline",
                image,
                "vs_fullscreen",
                "fs_image",
                false,
            ),
        }
    }

    fn user_pipe(&self, gpu: &Gpu, module: &wgpu::ShaderModule, samples: u32) -> Pipe {
        pipeline(
            gpu,
            &PipeDesc {
                label: "scene: user shader pipeline",
                layout: &self.base_layout,
                module,
                vertex_entry: "vs_fullscreen",
                fragment_entry: "afterglow_user_scene",
                color_format: HDR_FORMAT,
                blend: Blend::Replace,
                depth: Some((DEPTH_FORMAT, false)),
                samples,
            },
        )
    }

    /// Rebuilds the pipelines for another sample count.
    pub fn set_samples(&mut self, gpu: &Gpu, samples: u32) {
        if samples != self.samples {
            let layouts = [&self.base_layout, &self.pixels_layout, &self.image_layout];
            self.pipes = Self::pipes(gpu, &self.module, layouts, samples);
            if let Some(user) = self.user.take() {
                let pipe = self.user_pipe(gpu, &user.module, samples);
                self.user = Some(UserShader { pipe, ..user });
            }
            self.samples = samples;
        }
    }

    /// Compiles a user's scene shader and its pipeline, without using it
    /// yet: the caller checks the compilation result first.
    pub fn prepare_shader(&self, gpu: &Gpu, source: &str) -> UserShader {
        let full = format!("{}{source}\n{USER_SUFFIX}", user_prefix());
        let module = gpu
            .device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("scene: user shader"),
                source: wgpu::ShaderSource::Wgsl(full.into()),
            });
        let pipe = self.user_pipe(gpu, &module, self.samples);
        UserShader {
            source: source.to_string(),
            module,
            pipe,
        }
    }

    /// Switches to a prepared user shader, rebuilding its pipeline if the
    /// sample count changed since it was prepared.
    pub fn install_shader(&mut self, gpu: &Gpu, shader: UserShader) {
        let shader = if shader.pipe.samples == self.samples {
            shader
        } else {
            let pipe = self.user_pipe(gpu, &shader.module, self.samples);
            UserShader { pipe, ..shader }
        };
        self.content = Content::Shader(shader.source.clone());
        self.user = Some(shader);
        self.content_group = None;
    }

    /// The pipeline the pass will use (all share format and sample count).
    pub fn pipe(&self) -> &Pipe {
        match self.content {
            Content::DemoScene => &self.pipes.scene,
            Content::Pattern => &self.pipes.pattern,
            Content::Solid(_) => &self.pipes.solid,
            Content::Shape(_) => &self.pipes.shape,
            Content::Pixels(_) => &self.pipes.pixels,
            Content::Image(_) => &self.pipes.image,
            Content::Shader(_) => self
                .user
                .as_ref()
                .map(|u| &u.pipe)
                .unwrap_or(&self.pipes.solid),
        }
    }

    pub fn content(&self) -> &Content {
        &self.content
    }

    /// Bytes of the content's own texture (image or pixels), if any.
    pub fn content_bytes(&self) -> u64 {
        match &self.content {
            Content::Image(img) => crate::targets::texture_bytes(&img.texture),
            Content::Pixels(p) => p.width as u64 * p.height as u64 * 16,
            _ => 0,
        }
    }

    /// Replaces the content; an image is uploaded now, not per frame.
    pub fn set_content(&mut self, gpu: &Gpu, content: Content) -> Result<(), Error> {
        if let Content::Pixels(img) = &content {
            let max = gpu.max_texture_size();
            if img.width == 0 || img.height == 0 || img.width > max || img.height > max {
                return Err(Error::argument(
                    "image",
                    format!(
                        "is {}×{} pixels; each side must be 1 to {max}",
                        img.width, img.height
                    ),
                ));
            }
            if img.data.len() != img.width as usize * img.height as usize {
                return Err(Error::argument(
                    "image",
                    format!(
                        "is {}×{} pixels but has {} values",
                        img.width,
                        img.height,
                        img.data.len()
                    ),
                ));
            }
            let size = wgpu::Extent3d {
                width: img.width,
                height: img.height,
                depth_or_array_layers: 1,
            };
            let texture = gpu.create_texture(&wgpu::TextureDescriptor {
                label: Some("scene pixels"),
                size,
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::Rgba32Float,
                usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                view_formats: &[],
            })?;
            gpu.queue.write_texture(
                texture.as_image_copy(),
                bytemuck::cast_slice(&img.data),
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(img.width * 16),
                    rows_per_image: Some(img.height),
                },
                size,
            );
            let view = gpu.create_view(
                &texture,
                &wgpu::TextureViewDescriptor {
                    label: Some("scene pixels view"),
                    ..Default::default()
                },
            );
            self.content_group = Some(gpu.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("scene pixels bind group"),
                layout: &self.pixels_group_layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&view),
                }],
            }));
        } else if let Content::Image(img) = &content {
            let view = gpu.create_view(
                &img.texture,
                &wgpu::TextureViewDescriptor {
                    label: Some("scene image view"),
                    ..Default::default()
                },
            );
            self.content_group = Some(gpu.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("scene image bind group"),
                layout: &self.image_group_layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::TextureView(&view),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: wgpu::BindingResource::Sampler(&self.image_sampler),
                    },
                ],
            }));
        } else if let Content::Shader(source) = &content {
            let shader = self.prepare_shader(gpu, source);
            self.install_shader(gpu, shader);
            return Ok(());
        } else {
            self.content_group = None;
        }
        self.content = content;
        Ok(())
    }

    /// Records the scene pass. `color` is the MSAA attachment (resolved into
    /// `resolve` when given) or the HDR target itself.
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &self,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        color: &wgpu::TextureView,
        resolve: Option<&wgpu::TextureView>,
        store_color: bool,
        depth: &wgpu::TextureView,
        size: (u32, u32),
        time: f32,
        timestamp_writes: Option<wgpu::RenderPassTimestampWrites<'_>>,
    ) {
        let color_param = match &self.content {
            Content::Solid(c) | Content::Shape(c) => *c,
            _ => [0.0; 4],
        };
        let (gain, image_aspect) = match &self.content {
            Content::Image(img) => (
                img.gain,
                img.texture.width() as f32 / img.texture.height().max(1) as f32,
            ),
            _ => (1.0, 1.0),
        };
        let params = SceneParams {
            color: color_param,
            time,
            aspect: size.0 as f32 / size.1.max(1) as f32,
            gain,
            image_aspect,
            resolution: [size.0 as f32, size.1 as f32],
            instances: DEMO_INSTANCES,
            _pad: 0,
        };
        queue.write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("scene"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: color,
                depth_slice: None,
                resolve_target: resolve,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                    // With a resolve target only the resolved image is
                    // needed: storing four samples per pixel would write
                    // the whole MSAA target to memory for nothing.
                    store: if store_color {
                        wgpu::StoreOp::Store
                    } else {
                        wgpu::StoreOp::Discard
                    },
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: depth,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    // Depth is only tested within this pass.
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: None,
            }),
            timestamp_writes,
            ..Default::default()
        });
        pass.set_pipeline(&self.pipe().raw);
        pass.set_bind_group(0, &self.params_group, &[]);
        match &self.content {
            Content::DemoScene => pass.draw(0..36, 0..DEMO_INSTANCES),
            Content::Shape(_) => pass.draw(0..6, 0..1),
            Content::Pixels(_) | Content::Image(_) => {
                if let Some(group) = &self.content_group {
                    pass.set_bind_group(1, group, &[]);
                    pass.draw(0..3, 0..1);
                }
            }
            _ => pass.draw(0..3, 0..1),
        }
    }
}
