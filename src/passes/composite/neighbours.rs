//! The passes of an effect that reads the display image around its pixel
//! (`crate::effect::Neighbours`: anti-aliasing). The composite writes the
//! display image and resumes the frame after them; this module computes
//! what lies between, from the effect's description alone: each pass's module,
//! bindings and target.

use std::borrow::Cow;
use std::sync::Arc;

use crate::effect::{Binding, BindingKind, Input, Neighbours, Prepass};
use crate::error::Error;
use crate::frame::{FrameBuilder, Image};
use crate::gpu::Gpu;
use crate::pass::{
    compute_pipeline, entry, layout, linear_sampler, pipeline_layout, storage_entry, PipeCache,
};

/// What one effect that reads around its pixel has in a frame: the
/// display image and its passes' targets, in order.
pub struct Gathered {
    display: Image,
    targets: Vec<Image>,
}

impl Gathered {
    /// The image `input`. A pass reads only those before it (the test
    /// `every_pass_reads_only_what_is_made_before_it`); the display image
    /// stands in for any other.
    pub fn input(&self, input: Input) -> &Image {
        match input {
            Input::Pass(i) => self.targets.get(i).unwrap_or(&self.display),
            Input::Display => &self.display,
        }
    }
}

/// What the targets of the passes allow: written as storage, then sampled.
const USAGE: wgpu::TextureUsages =
    wgpu::TextureUsages::STORAGE_BINDING.union(wgpu::TextureUsages::TEXTURE_BINDING);

/// A pass's pipeline and the layout of its bind group.
struct PrepassPipe {
    layout: wgpu::BindGroupLayout,
    pipe: wgpu::ComputePipeline,
}

/// The pipelines of the effects' passes and their tables, made on first
/// use.
pub struct NeighbourPasses {
    linear: wgpu::Sampler,
    /// By (effect, pass).
    pipes: PipeCache<(usize, usize), Arc<PrepassPipe>>,
    /// The tables (passes that read nothing), computed once, by (effect,
    /// pass).
    tables: PipeCache<(usize, usize), Option<wgpu::TextureView>>,
}

/// The bindings of `pass`'s module, in order: the sampler, then its
/// reads.
fn bindings(pass: &Prepass) -> Vec<Binding> {
    let mut all = vec![Binding {
        name: Cow::Borrowed("fx_linear_sampler"),
        kind: BindingKind::Sampler,
    }];
    for &(name, _) in pass.reads {
        all.push(Binding {
            name: Cow::Borrowed(name),
            kind: BindingKind::Texture2d,
        });
    }
    all
}

/// The WGSL of `pass`: the full-screen stage, its bindings and target
/// (`fx_out`, after them), its own text.
pub fn source(pass: &Prepass) -> String {
    let mut s = crate::shaders::compose(&[]);
    s.push('\n');
    let bindings = bindings(pass);
    for (n, b) in (0..).zip(&bindings) {
        b.declare(&mut s, 0, n);
    }
    let out = bindings.len() as u32;
    crate::shaders::declare_image_out(&mut s, 0, out, "fx_out", pass.format);
    for part in pass.wgsl {
        s.push_str(part);
    }
    s.push_str(&crate::shaders::image_entry(
        pass.entry,
        pass.function,
        "fx_out",
    ));
    s
}

impl NeighbourPasses {
    pub fn new(gpu: &Gpu) -> NeighbourPasses {
        NeighbourPasses {
            linear: linear_sampler(gpu, "neighbours linear sampler"),
            pipes: PipeCache::new(),
            tables: PipeCache::new(),
        }
    }

    /// Adds the passes of `neighbours` (of the effect at `effect` in
    /// `BUILTINS`) on `display`, each into a target of its own.
    pub fn build(
        &self,
        f: &mut FrameBuilder<'_>,
        effect: usize,
        neighbours: &'static Neighbours,
        display: Image,
    ) -> Result<Gathered, Error> {
        let mut g = Gathered {
            display,
            targets: Vec::new(),
        };
        for (i, pass) in neighbours.passes.iter().enumerate() {
            let target = match pass.table {
                Some(size) => {
                    let view = self.table(f.gpu, (effect, i), pass, size)?;
                    f.external(pass.name, &view, size, pass.format)
                }
                None => {
                    let size = f.info.output_size;
                    let tex = f.texture(pass.name, size, pass.format, 1, 1, USAGE)?;
                    let target = f.view(&tex, 0);
                    let p = self.pipe(f.gpu, (effect, i), pass);
                    let images: Vec<&Image> =
                        pass.reads.iter().map(|&(_, read)| g.input(read)).collect();
                    let group = self.bind(f.gpu, pass, &p.layout, &images, &target.view);
                    f.compute_image(pass.name.into(), &p.pipe, vec![group], &target, &images);
                    target
                }
            };
            g.targets.push(target);
        }
        Ok(g)
    }

    /// The bind group of `pass`: the sampler, what it reads, its target.
    fn bind(
        &self,
        gpu: &Gpu,
        pass: &Prepass,
        layout: &wgpu::BindGroupLayout,
        images: &[&Image],
        target: &wgpu::TextureView,
    ) -> wgpu::BindGroup {
        let mut entries = vec![wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::Sampler(&self.linear),
        }];
        for (binding, image) in (1..).zip(images) {
            entries.push(wgpu::BindGroupEntry {
                binding,
                resource: wgpu::BindingResource::TextureView(&image.view),
            });
        }
        entries.push(wgpu::BindGroupEntry {
            binding: entries.len() as u32,
            resource: wgpu::BindingResource::TextureView(target),
        });
        gpu.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(pass.name),
            layout,
            entries: &entries,
        })
    }

    /// The table `pass` computes, computed on this device the first time
    /// a frame needs it, in a submission of its own (it reads nothing, so
    /// it needs nothing of the frame).
    fn table(
        &self,
        gpu: &Gpu,
        key: (usize, usize),
        pass: &Prepass,
        (width, height): (u32, u32),
    ) -> Result<wgpu::TextureView, Error> {
        let made = self.tables.get(key, || {
            // Its size is a constant that any device allows.
            let size = (width, height);
            let texture = gpu.create_texture_2d(pass.name, size, pass.format, (1, 1), USAGE);
            let texture = texture.ok()?;
            let view = texture.create_view(&Default::default());
            let p = self.pipe(gpu, key, pass);
            let group = self.bind(gpu, pass, &p.layout, &[], &view);
            let mut encoder = gpu
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some(pass.name),
                });
            {
                let mut cp = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some(pass.name),
                    timestamp_writes: None,
                });
                cp.set_pipeline(&p.pipe);
                cp.set_bind_group(0, &group, &[]);
                let [x, y, z] = crate::shaders::image_workgroups((width, height));
                cp.dispatch_workgroups(x, y, z);
            }
            gpu.queue.submit([encoder.finish()]);
            Some(view)
        });
        made.ok_or_else(|| Error::argument(pass.name, "could not be made"))
    }

    fn pipe(&self, gpu: &Gpu, key: (usize, usize), pass: &Prepass) -> Arc<PrepassPipe> {
        self.pipes
            .get(key, || Arc::new(PrepassPipe::new(gpu, pass)))
    }
}

impl PrepassPipe {
    fn new(gpu: &Gpu, pass: &Prepass) -> PrepassPipe {
        let mut entries = Vec::new();
        for (n, b) in (0..).zip(bindings(pass)) {
            entries.push(entry(n, b.layout()));
        }
        entries.push(storage_entry(entries.len() as u32, pass.format));
        let layout = layout(gpu, pass.name, &entries);
        let module = gpu.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(pass.name),
            source: wgpu::ShaderSource::Wgsl(source(pass).into()),
        });
        let pipeline_layout = pipeline_layout(gpu, pass.name, &[&layout]);
        let pipe = compute_pipeline(gpu, pass.name, &pipeline_layout, &module, pass.entry, &[]);
        PrepassPipe { layout, pipe }
    }
}

#[cfg(test)]
mod tests {
    use crate::effect::Input;
    use crate::effects::BUILTINS;

    #[test]
    fn every_pass_reads_only_what_is_made_before_it() {
        let mut seen = 0;
        for b in BUILTINS {
            let Some(n) = b.neighbours else { continue };
            let reads = n.passes.iter().map(|p| p.reads).chain([n.reads]);
            for (i, reads) in reads.enumerate() {
                for &(name, read) in reads {
                    if let Input::Pass(j) = read {
                        assert!(j < i, "{}: {name} reads pass {j}, made after it", b.name);
                        seen += 1;
                    }
                }
            }
        }
        // SMAA's weights read the edges and the area table; the blend, the weights.
        assert!(seen >= 3, "{seen}");
    }

    /// Only the effect the frame is split at has its passes built and its
    /// reads bound; one that reads as a hook may run behind another, so it
    /// has neither, and a table reads nothing.
    #[test]
    fn hooks_have_no_passes_and_tables_read_nothing() {
        let mut hooks = 0;
        for b in BUILTINS {
            let Some(n) = b.neighbours else { continue };
            if n.hook {
                hooks += 1;
                assert!(n.passes.is_empty() && n.reads.is_empty(), "{}", b.name);
            }
            for p in n.passes.iter().filter(|p| p.table.is_some()) {
                assert!(p.reads.is_empty(), "{}: {}", b.name, p.name);
            }
        }
        assert!(hooks >= 1, "sharpening reads as a hook");
    }
}
