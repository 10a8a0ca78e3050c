//! Scene pass: the content, drawn into the HDR target. With `msaa: 4` it
//! renders into a 4× multisampled color and depth attachment whose color is
//! resolved into the HDR target at the end of the pass (or stored for the
//! tonemap-aware resolve pass); with `msaa: 1` straight into the HDR target.
//! It creates those targets and publishes the HDR image for the passes
//! after it.
//!
//! Content kinds share one uniform buffer; each kind's pipeline is created
//! the first time that kind is shown (and again after a sample-count
//! change), never for content that is not used. Only content drawn as
//! geometry (the demo scene) has a depth attachment and depth state: a
//! full-screen shader or image covers every pixel once, and a depth buffer
//! would cost a clear and a test per pixel for nothing.

use super::content::Content;
use super::user_shader::{emissive_pipe, UserShader};
use crate::error::Error;
use crate::frame::{
    texture_bytes, ColorAttachment, Draw, FrameBuilder, FrameInfo, DEPTH_FORMAT, HDR_FORMAT,
};
use crate::gpu::Gpu;
use crate::options::Resolve;
use crate::pass::{
    entry, layout, linear_sampler, pipeline, pipeline_layout, shader_module, uniform,
    uniform_buffer, Blend, Pass, Pipe, PipeDesc, Registration, Stage, FILTERABLE_TEXTURE,
    FILTERING_SAMPLER, UNIFORM,
};

/// The WGSL of the scene pass after the shared prelude.
pub const SHADER_PARTS: &[&str] = &[wgsl!("scene_params.wgsl"), wgsl!("scene.wgsl")];

/// Number of cubes in the demo scene.
pub const DEMO_INSTANCES: u32 = 120;

uniform! {
    /// `SceneParams` in scene_params.wgsl (layout checked by src/tests/shaders.rs).
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
}

/// Which pipeline a content kind uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Demo,
    Image,
    #[cfg(test)]
    Fixture(super::fixtures::FixtureKind),
}

/// Layouts every scene pipeline is made with.
struct Layouts {
    base: wgpu::PipelineLayout,
    image: wgpu::PipelineLayout,
    image_group: wgpu::BindGroupLayout,
    params_group: wgpu::BindGroupLayout,
}

/// The scene: held by the chain itself (it draws the content it is given),
/// so it is not made from here. Its modules include the wrapper of a
/// user's scene shader, shown with a minimal valid one.
pub const PASS: Registration = Registration {
    stage: Stage::Scene,
    make: None,
    #[cfg(test)]
    shaders: || {
        vec![
            ("scene", crate::shaders::compose(SHADER_PARTS)),
            (
                "user scene wrapper",
                super::content::user_module_source(
                    "fn scene(uv: vec2f, time: f32) -> vec4f { \
                     return vec4f(uv * resolution() / 100.0, time, 1.0); }",
                ),
            ),
            (
                "user scene wrapper with emissive",
                super::content::user_module_source(
                    "fn scene(uv: vec2f, time: f32) -> vec4f { return vec4f(uv, time, 1.0); }\n\
                     fn emissive(uv: vec2f, time: f32) -> vec3f { return vec3f(uv, time); }",
                ),
            ),
        ]
    },
    #[cfg(test)]
    uniforms: || vec![crate::pass::uniform_layout::<SceneParams>(SHADER_PARTS)],
};

pub struct ScenePass {
    module: wgpu::ShaderModule,
    layouts: Layouts,
    image_sampler: wgpu::Sampler,
    params: wgpu::Buffer,
    params_group: wgpu::BindGroup,
    /// Pipelines of the content kinds shown so far, for `samples`.
    pipes: Vec<(Kind, Pipe)>,
    samples: u32,
    content: Content,
    /// The compiled shader of `Content::Shader`.
    user: Option<UserShader>,
    /// Group 1 of image (and pixels) content.
    content_group: Option<wgpu::BindGroup>,
    #[cfg(test)]
    fixtures: super::fixtures::Fixtures,
}

impl ScenePass {
    pub fn new(gpu: &Gpu, samples: u32) -> Result<ScenePass, Error> {
        let module = shader_module(gpu, "scene shader", SHADER_PARTS);
        let params_group = layout(gpu, "scene params layout", &[entry(0, UNIFORM)]);
        let image_group = layout(
            gpu,
            "scene image layout",
            &[entry(1, FILTERABLE_TEXTURE), entry(2, FILTERING_SAMPLER)],
        );
        let layouts = Layouts {
            base: pipeline_layout(gpu, "scene pipeline layout", &[&params_group]),
            image: pipeline_layout(
                gpu,
                "scene image pipeline layout",
                &[&params_group, &image_group],
            ),
            image_group,
            params_group,
        };
        let params = uniform_buffer(gpu, "scene params", std::mem::size_of::<SceneParams>());
        let params_bind = gpu.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("scene params bind group"),
            layout: &layouts.params_group,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: params.as_entire_binding(),
            }],
        });
        let mut pass = ScenePass {
            #[cfg(test)]
            fixtures: super::fixtures::Fixtures::new(gpu, &layouts.params_group),
            module,
            layouts,
            image_sampler: linear_sampler(gpu, "scene image sampler"),
            params,
            params_group: params_bind,
            pipes: Vec::new(),
            samples,
            content: Content::DemoScene,
            user: None,
            content_group: None,
        };
        pass.ensure_pipe(gpu);
        Ok(pass)
    }

    /// A scene pipeline: HDR color, depth (tested and written) where
    /// `depth_test`, this sample count.
    fn make_pipe(
        gpu: &Gpu,
        label: &str,
        layout: &wgpu::PipelineLayout,
        module: &wgpu::ShaderModule,
        (vs, fs): (&str, &str),
        depth_test: bool,
        samples: u32,
    ) -> Pipe {
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
                depth: depth_test.then_some((DEPTH_FORMAT, true)),
                samples,
                constants: &[],
            },
        )
    }

    fn kind(&self) -> Option<Kind> {
        match self.content {
            Content::DemoScene => Some(Kind::Demo),
            Content::Image(_) => Some(Kind::Image),
            Content::Shader(_) | Content::Texture(_) => None,
            #[cfg(test)]
            Content::Solid(_) => Some(Kind::Fixture(super::fixtures::FixtureKind::Solid)),
            #[cfg(test)]
            Content::Shape(_) => Some(Kind::Fixture(super::fixtures::FixtureKind::Shape)),
            #[cfg(test)]
            Content::Pixels(_) => Some(Kind::Fixture(super::fixtures::FixtureKind::Pixels)),
        }
    }

    /// Creates the current content's pipeline if it has none yet.
    fn ensure_pipe(&mut self, gpu: &Gpu) {
        let Some(kind) = self.kind() else { return };
        if self.pipes.iter().any(|(k, _)| *k == kind) {
            return;
        }
        let s = self.samples;
        let pipe = match kind {
            Kind::Demo => Self::make_pipe(
                gpu,
                "scene: demo pipeline",
                &self.layouts.base,
                &self.module,
                ("vs_scene", "fs_scene"),
                true,
                s,
            ),
            Kind::Image => Self::make_pipe(
                gpu,
                "scene: image pipeline",
                &self.layouts.image,
                &self.module,
                ("vs_fullscreen", "fs_image"),
                false,
                s,
            ),
            #[cfg(test)]
            Kind::Fixture(kind) => {
                let (label, layout, module, entries) = self.fixtures.pipe_spec(kind);
                let layout = layout.unwrap_or(&self.layouts.base);
                Self::make_pipe(gpu, label, layout, module, entries, false, s)
            }
        };
        self.pipes.push((kind, pipe));
    }

    fn user_pipe(&self, gpu: &Gpu, module: &wgpu::ShaderModule, samples: u32) -> Pipe {
        Self::make_pipe(
            gpu,
            "scene: user shader pipeline",
            &self.layouts.base,
            module,
            ("vs_fullscreen", "afterglow_user_scene"),
            false,
            samples,
        )
    }

    /// Rebuilds the pipelines in use for another sample count.
    pub fn set_samples(&mut self, gpu: &Gpu, samples: u32) {
        if samples != self.samples {
            self.samples = samples;
            self.pipes.clear();
            self.ensure_pipe(gpu);
            if let Some(user) = self.user.take() {
                let pipe = self.user_pipe(gpu, &user.module, samples);
                self.user = Some(UserShader { pipe, ..user });
            }
        }
    }

    /// Compiles a user's scene shader and its pipeline, without using it
    /// yet: the caller checks the compilation result first.
    pub fn prepare_shader(&self, gpu: &Gpu, source: &str) -> UserShader {
        let full = super::content::user_module_source(source);
        let module = gpu.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("scene: user shader"),
            source: wgpu::ShaderSource::Wgsl(full.into()),
        });
        let pipe = self.user_pipe(gpu, &module, self.samples);
        let emissive = super::content::defines_emissive(source)
            .then(|| emissive_pipe(gpu, &self.layouts.base, &module));
        UserShader {
            source: source.to_string(),
            module,
            pipe,
            emissive,
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
        let content = Content::Shader(shader.source.clone());
        self.retire_image(&content);
        self.content = content;
        self.user = Some(shader);
        self.content_group = None;
    }

    /// An uploaded image that `next` no longer shows is returned now, not
    /// when the garbage collector gets to it.
    fn retire_image(&self, next: &Content) {
        if let Content::Image(old) = &self.content {
            if !matches!(next, Content::Image(new) if new.texture == old.texture) {
                old.texture.destroy();
            }
        }
    }

    /// The pipeline the pass uses now (`None` only while a shader content
    /// has no compiled module, which `set_content` never leaves behind).
    fn pipe(&self) -> Option<&Pipe> {
        match self.kind() {
            Some(kind) => self.pipes.iter().find(|(k, _)| *k == kind).map(|(_, p)| p),
            None => self.user.as_ref().map(|u| &u.pipe),
        }
    }

    pub fn content(&self) -> &Content {
        &self.content
    }

    /// Whether the content's pipeline tests depth, so that the pass needs
    /// a depth attachment.
    pub fn uses_depth(&self) -> bool {
        self.pipe().is_some_and(|p| p.depth_format.is_some())
    }

    /// The emissive pipeline of the user shader in use, if it has one.
    pub fn emissive(&self) -> Option<&Pipe> {
        match self.content {
            Content::Shader(_) => self.user.as_ref().and_then(|u| u.emissive.as_ref()),
            _ => None,
        }
    }

    /// Bytes of the content's own texture (image or pixels), if any.
    pub fn content_bytes(&self) -> u64 {
        match &self.content {
            Content::Image(img) => texture_bytes(&img.texture),
            #[cfg(test)]
            Content::Pixels(p) => p.width as u64 * p.height as u64 * 16,
            _ => 0,
        }
    }

    /// Replaces the content; an image is uploaded now, not per frame.
    pub fn set_content(&mut self, gpu: &Gpu, content: Content) -> Result<(), Error> {
        self.content_group = match &content {
            Content::Image(img) => {
                let view = gpu.create_view(
                    &img.texture,
                    &wgpu::TextureViewDescriptor {
                        label: Some("scene image view"),
                        ..Default::default()
                    },
                );
                Some(gpu.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("scene image bind group"),
                    layout: &self.layouts.image_group,
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
                }))
            }
            Content::Shader(source) => {
                let shader = self.prepare_shader(gpu, source);
                self.install_shader(gpu, shader);
                return Ok(());
            }
            #[cfg(test)]
            Content::Pixels(img) => Some(self.fixtures.upload(gpu, img)?),
            _ => None,
        };
        self.retire_image(&content);
        self.content = content;
        self.ensure_pipe(gpu);
        Ok(())
    }
}

/// The caller's depth texture as the frame reads it: through the view of
/// its depth aspect made when it was given.
fn depth_image(
    f: &mut FrameBuilder<'_>,
    depth: &super::content::DepthInput,
    size: (u32, u32),
) -> crate::frame::DepthImage {
    let format = depth.read.texture().format();
    crate::frame::DepthImage {
        image: f.external("depth texture", &depth.read, size, format),
        kind: depth.kind,
    }
}

impl Pass for ScenePass {
    /// Creates the scene's targets, adds the scene step and publishes the
    /// HDR image (and, for the tonemapped resolve, the stored MSAA color).
    fn build(&self, f: &mut FrameBuilder<'_>) -> Result<(), Error> {
        use wgpu::TextureUsages as U;
        if let Content::Texture(input) = &self.content {
            // The caller's texture is the HDR image: sampled where it is,
            // no target of our own and no copy.
            let scene = f.external("scene texture", &input.scene, input.size, input.formats.0);
            f.set_hdr(scene);
            if let (Some(view), Some(format)) = (&input.bloom, input.formats.1) {
                f.slots.bloom_source = Some(f.external("bloom texture", view, input.size, format));
            }
            if let Some(depth) = &input.depth {
                f.slots.depth = Some(depth_image(f, depth, input.size));
            }
            return Ok(());
        }
        let size = f.size();
        let samples = f.settings.msaa.sample_count();
        let transient = f.transient();
        let sampled = U::RENDER_ATTACHMENT | U::TEXTURE_BINDING;
        let hdr = f.texture("hdr target", size, HDR_FORMAT, 1, 1, sampled)?;
        let hdr = f.view(&hdr, 0);
        let tonemapped = samples > 1 && f.settings.resolve == Resolve::Tonemapped;
        let msaa = if samples > 1 {
            // The tonemapped resolve reads the samples: stored and bound.
            let usage = if tonemapped {
                U::RENDER_ATTACHMENT | U::TEXTURE_BINDING
            } else {
                U::RENDER_ATTACHMENT | transient
            };
            let tex = f.texture("msaa color", size, HDR_FORMAT, samples, 1, usage)?;
            Some(f.view(&tex, 0))
        } else {
            None
        };
        let pipe = self.pipe().ok_or_else(|| {
            Error::Graph(crate::graph::GraphError {
                pass: "scene".into(),
                attachment: "hdr target".into(),
                message: "the content has no pipeline".into(),
            })
        })?;
        // A depth attachment only for a pipeline that tests depth.
        let depth = match pipe.depth_format {
            Some(format) => {
                let label = if samples > 1 { "msaa depth" } else { "depth" };
                let usage = U::RENDER_ATTACHMENT | transient;
                Some(f.texture(label, size, format, samples, 1, usage)?)
            }
            None => None,
        };
        let depth = depth.map(|t| f.view(&t, 0));
        let color = match &msaa {
            // With a resolve target only the resolved image is needed:
            // storing four samples per pixel would write the whole MSAA
            // target to memory for nothing.
            Some(m) => ColorAttachment {
                target: m,
                resolve: (!tonemapped).then_some(&hdr),
                load: false,
                store: tonemapped,
            },
            None => ColorAttachment {
                target: &hdr,
                resolve: None,
                load: false,
                store: true,
            },
        };
        let depth = depth.as_ref();
        f.pass("scene".into(), pipe, color, depth, &[], Draw::ByPass);
        if let Some(emissive) = self.emissive() {
            // Selective bloom: the shader's `fn emissive` is what blooms,
            // rendered at the frame's size for the bloom extract.
            let tex = f.texture("emissive target", size, HDR_FORMAT, 1, 1, sampled)?;
            let target = f.view(&tex, 0);
            f.fullscreen(
                "scene emissive".into(),
                emissive,
                self.params_group.clone(),
                Some(&target),
                &[],
                false,
            );
            f.slots.bloom_source = Some(target);
        }
        if tonemapped {
            f.slots.msaa_color = msaa;
        }
        f.set_hdr(hdr);
        Ok(())
    }

    fn prepare(&self, queue: &wgpu::Queue, info: &FrameInfo, time: f32) {
        // The caller's texture is the scene: nothing is drawn, and nothing
        // reads the uniforms (a `writeBuffer` call saved every frame).
        if let Content::Texture(_) = &self.content {
            return;
        }
        let size = info.size;
        #[cfg(test)]
        let color = match &self.content {
            Content::Solid(c) | Content::Shape(c) => *c,
            _ => [0.0; 4],
        };
        #[cfg(not(test))]
        let color = [0.0; 4];
        let (gain, image_aspect) = match &self.content {
            Content::Image(img) => (
                img.gain,
                img.texture.width() as f32 / img.texture.height().max(1) as f32,
            ),
            _ => (1.0, 1.0),
        };
        let params = SceneParams {
            color,
            time,
            aspect: size.0 as f32 / size.1.max(1) as f32,
            gain,
            image_aspect,
            resolution: [size.0 as f32, size.1 as f32],
            instances: DEMO_INSTANCES,
            _pad: 0,
        };
        queue.write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
    }

    fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        let Some(pipe) = self.pipe() else { return };
        pass.set_pipeline(&pipe.raw);
        pass.set_bind_group(0, &self.params_group, &[]);
        if let Some(group) = &self.content_group {
            pass.set_bind_group(1, group, &[]);
        }
        match &self.content {
            Content::DemoScene => pass.draw(0..36, 0..DEMO_INSTANCES),
            #[cfg(test)]
            Content::Shape(_) => pass.draw(0..6, 0..1),
            _ => pass.draw(0..3, 0..1),
        }
    }
}
