//! The HDR chain, independent of where its output goes: content into the
//! offscreen HDR target, then the composite pass into the output view. The
//! web layer points it at the canvas texture of the frame; natively it
//! renders into any texture, which is how it is tested and benchmarked.

use crate::gpu::Gpu;
use crate::output::OutputSpec;
use crate::passes::composite::CompositePass;
use crate::passes::pattern::PatternPass;
use crate::targets::{Targets, HDR_FORMAT};

/// What the scene pass draws.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Content {
    /// The built-in animated HDR pattern.
    Pattern,
    /// One premultiplied linear colour everywhere (for image tests).
    Solid([f32; 4]),
}

pub struct Chain {
    output: OutputSpec,
    content: Content,
    /// `None` while the size is 0 in either dimension: frames are skipped.
    targets: Option<Targets>,
    size: (u32, u32),
    pattern: PatternPass,
    composite: CompositePass,
}

impl Chain {
    pub fn new(gpu: &Gpu, output: OutputSpec, size: (u32, u32)) -> Chain {
        let mut chain = Chain {
            output,
            content: Content::Pattern,
            targets: None,
            size: (0, 0),
            pattern: PatternPass::new(gpu, HDR_FORMAT),
            composite: CompositePass::new(gpu, &output),
        };
        chain.resize(gpu, size);
        chain
    }

    pub fn output(&self) -> &OutputSpec {
        &self.output
    }

    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    pub fn set_content(&mut self, content: Content) {
        self.content = content;
    }

    /// Rebuilds the size-dependent targets and the bind groups that
    /// reference them, together. A zero dimension drops them.
    pub fn resize(&mut self, gpu: &Gpu, size: (u32, u32)) {
        if size == self.size && (self.targets.is_some() || size.0 == 0 || size.1 == 0) {
            return;
        }
        self.size = size;
        if size.0 == 0 || size.1 == 0 {
            self.targets = None;
            return;
        }
        let targets = Targets::new(gpu, size);
        self.composite.bind_input(gpu, &targets.hdr_view);
        self.targets = Some(targets);
    }

    /// Switches to a new output description (format, alpha, tone mapping).
    pub fn set_output(&mut self, gpu: &Gpu, output: OutputSpec) {
        self.composite.reconfigure(gpu, &output);
        self.output = output;
    }

    /// Records the frame into `encoder`, ending with the composite pass into
    /// `output_view` (a view of format `output().view_format`). Returns
    /// `false`, recording nothing, while the size is zero.
    pub fn encode(
        &self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        output_view: &wgpu::TextureView,
        time_seconds: f64,
    ) -> bool {
        let Some(targets) = &self.targets else {
            return false;
        };
        let solid = match self.content {
            Content::Pattern => None,
            Content::Solid(c) => Some(c),
        };
        self.pattern.record(
            &gpu.queue,
            encoder,
            &targets.hdr_view,
            targets.size,
            time_seconds as f32,
            solid,
        );
        self.composite.record(encoder, output_view);
        true
    }
}
