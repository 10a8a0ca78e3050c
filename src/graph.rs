//! Each frame's passes, declared as data and checked before recording.
//!
//! WebGPU validates the same coherences, but its messages say only that
//! something in a pass is wrong. The checks here run when the frame is
//! (re)built, and an error names the pass and the attachment:
//!
//! - the pipeline's target format equals the attachment view's format;
//! - the pipeline's sample count equals every attachment's sample count;
//! - all attachments of a pass (color, resolve, depth) have one size;
//! - a resolve goes from a multisampled view to a single-sample view of the
//!   same format and size;
//! - no pass samples a subresource (texture + mip) that it renders to.

use std::fmt;

/// A texture as the graph sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureDecl {
    pub label: String,
    pub format: wgpu::TextureFormat,
    pub sample_count: u32,
    /// Size of mip 0.
    pub size: (u32, u32),
    pub mip_levels: u32,
}

/// One view: a single mip of a texture, seen in `format` (the texture's
/// format or its `-srgb` twin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewDecl {
    /// Index into [`Graph::textures`].
    pub texture: usize,
    pub mip: u32,
    pub format: wgpu::TextureFormat,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ColorDecl {
    pub view: ViewDecl,
    pub resolve_target: Option<ViewDecl>,
    /// The format the pipeline's fragment target was created with.
    pub pipeline_format: wgpu::TextureFormat,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DepthDecl {
    pub view: ViewDecl,
    /// `depthReadOnly`: the pass only tests against the depth, so it may
    /// also sample it (the one exception to the same-subresource rule).
    pub read_only: bool,
    /// Whether the pipeline writes depth (`depthWriteEnabled`); a
    /// read-only attachment needs a pipeline that does not.
    pub pipeline_writes: bool,
}

/// A render pass: what it writes, what it reads, what its pipeline expects.
#[derive(Clone, Debug, PartialEq)]
pub struct PassDecl {
    pub name: String,
    pub colors: Vec<ColorDecl>,
    pub depth: Option<DepthDecl>,
    /// The depth format of the pipeline's depth state (`None`: it has none).
    pub pipeline_depth: Option<wgpu::TextureFormat>,
    /// The pipeline's `multisample.count`.
    pub pipeline_samples: u32,
    /// Views bound for sampling or loading in this pass.
    pub sampled: Vec<ViewDecl>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graph {
    pub textures: Vec<TextureDecl>,
    pub passes: Vec<PassDecl>,
}

/// A violated rule, naming the pass and the attachment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphError {
    pub pass: String,
    pub attachment: String,
    pub message: String,
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pass, self.message)
    }
}

impl std::error::Error for GraphError {}

fn mip_size(size: (u32, u32), mip: u32) -> (u32, u32) {
    ((size.0 >> mip).max(1), (size.1 >> mip).max(1))
}

fn fmt_size(s: (u32, u32)) -> String {
    format!("{}×{}", s.0, s.1)
}

impl Graph {
    /// Adds a texture, returning its index.
    pub fn texture(&mut self, decl: TextureDecl) -> usize {
        self.textures.push(decl);
        self.textures.len() - 1
    }

    /// A view of mip `mip` of texture `texture` in the texture's own format.
    pub fn view(&self, texture: usize, mip: u32) -> ViewDecl {
        ViewDecl {
            texture,
            mip,
            format: self.textures[texture].format,
        }
    }

    /// The name a view is called by in messages: the texture's label, with
    /// the mip where the texture has several ("bloom mip 4").
    pub fn view_name(&self, v: &ViewDecl) -> String {
        match self.textures.get(v.texture) {
            Some(t) if t.mip_levels > 1 => format!("{} mip {}", t.label, v.mip),
            Some(t) => t.label.clone(),
            None => format!("texture #{}", v.texture),
        }
    }

    /// Size of a view (the size of its mip).
    pub fn view_size(&self, v: &ViewDecl) -> (u32, u32) {
        self.textures
            .get(v.texture)
            .map(|t| mip_size(t.size, v.mip))
            .unwrap_or((0, 0))
    }

    fn samples(&self, v: &ViewDecl) -> u32 {
        self.textures
            .get(v.texture)
            .map(|t| t.sample_count)
            .unwrap_or(0)
    }

    /// Checks every pass; the first violation is returned.
    pub fn validate(&self) -> Result<(), GraphError> {
        for pass in &self.passes {
            self.validate_pass(pass)?;
        }
        Ok(())
    }

    fn validate_pass(&self, pass: &PassDecl) -> Result<(), GraphError> {
        let err = |attachment: String, message: String| GraphError {
            pass: pass.name.clone(),
            attachment,
            message,
        };
        // Every view must exist and name an existing mip.
        let all_views = pass
            .colors
            .iter()
            .flat_map(|c| std::iter::once(&c.view).chain(c.resolve_target.as_ref()))
            .chain(pass.depth.as_ref().map(|d| &d.view))
            .chain(pass.sampled.iter());
        for v in all_views {
            match self.textures.get(v.texture) {
                None => {
                    return Err(err(
                        format!("texture #{}", v.texture),
                        format!("view of unknown texture #{}", v.texture),
                    ))
                }
                Some(t) if v.mip >= t.mip_levels => {
                    return Err(err(
                        t.label.clone(),
                        format!(
                            "view of '{}' mip {} but it has {} mip level(s)",
                            t.label, v.mip, t.mip_levels
                        ),
                    ))
                }
                Some(t) if v.format.remove_srgb_suffix() != t.format.remove_srgb_suffix() => {
                    return Err(err(
                        t.label.clone(),
                        format!(
                            "view of '{}' as {:?}, but the texture is {:?}",
                            t.label, v.format, t.format
                        ),
                    ))
                }
                Some(_) => {}
            }
        }

        // The size every attachment must share: the first one's.
        let mut reference: Option<(String, String, (u32, u32))> = None;
        let mut check_size = |role: &str, v: &ViewDecl| -> Result<(), GraphError> {
            let name = self.view_name(v);
            let size = self.view_size(v);
            match &reference {
                None => {
                    reference = Some((role.to_string(), name, size));
                    Ok(())
                }
                Some((ref_role, ref_name, ref_size)) if *ref_size != size => Err(err(
                    name.clone(),
                    format!(
                        "{role} '{name}' is {}, {ref_role} '{ref_name}' is {}",
                        fmt_size(size),
                        fmt_size(*ref_size)
                    ),
                )),
                Some(_) => Ok(()),
            }
        };

        for (i, c) in pass.colors.iter().enumerate() {
            let role = if pass.colors.len() > 1 {
                format!("target {i}")
            } else {
                "target".to_string()
            };
            let name = self.view_name(&c.view);
            if c.pipeline_format != c.view.format {
                return Err(err(
                    name.clone(),
                    format!(
                        "pipeline writes {:?} but {role} '{name}' is viewed as {:?}",
                        c.pipeline_format, c.view.format
                    ),
                ));
            }
            let samples = self.samples(&c.view);
            if samples != pass.pipeline_samples {
                return Err(err(
                    name.clone(),
                    format!(
                        "pipeline has {} sample(s) but {role} '{name}' has {samples}",
                        pass.pipeline_samples
                    ),
                ));
            }
            check_size(&role, &c.view)?;
            if let Some(r) = &c.resolve_target {
                let rname = self.view_name(r);
                if samples <= 1 {
                    return Err(err(
                        name.clone(),
                        format!(
                            "resolves '{name}' into '{rname}' but '{name}' is not multisampled"
                        ),
                    ));
                }
                if self.samples(r) != 1 {
                    return Err(err(
                        rname.clone(),
                        format!(
                            "resolve target '{rname}' has {} samples; it must have 1",
                            self.samples(r)
                        ),
                    ));
                }
                if r.format != c.view.format {
                    return Err(err(
                        rname.clone(),
                        format!(
                            "resolve target '{rname}' is {:?} but '{name}' is {:?}",
                            r.format, c.view.format
                        ),
                    ));
                }
                check_size("resolve target", r)?;
            }
        }
        match (&pass.depth, pass.pipeline_depth) {
            (None, Some(format)) => {
                return Err(err(
                    "depth".into(),
                    format!(
                        "pipeline expects depth {format:?} but the pass has no depth attachment"
                    ),
                ))
            }
            (Some(d), None) => {
                let name = self.view_name(&d.view);
                return Err(err(
                    name.clone(),
                    format!("pass has depth '{name}' but the pipeline has no depth state"),
                ));
            }
            (Some(d), Some(format)) if format != d.view.format => {
                let name = self.view_name(&d.view);
                return Err(err(
                    name.clone(),
                    format!(
                        "pipeline expects depth {format:?} but depth '{name}' is {:?}",
                        d.view.format
                    ),
                ));
            }
            _ => {}
        }
        if let Some(d) = &pass.depth {
            let name = self.view_name(&d.view);
            let samples = self.samples(&d.view);
            if samples != pass.pipeline_samples {
                return Err(err(
                    name.clone(),
                    format!(
                        "pipeline has {} sample(s) but depth '{name}' has {samples}",
                        pass.pipeline_samples
                    ),
                ));
            }
            check_size("depth", &d.view)?;
            if d.read_only && d.pipeline_writes {
                return Err(err(
                    name.clone(),
                    format!("depth '{name}' is read-only but the pipeline writes depth"),
                ));
            }
        }

        // The same-subresource rule. A read-only depth attachment is not
        // written, so the pass may sample it (soft particles, fog).
        let written = pass
            .colors
            .iter()
            .flat_map(|c| std::iter::once(&c.view).chain(c.resolve_target.as_ref()))
            .chain(
                pass.depth
                    .as_ref()
                    .filter(|d| !d.read_only)
                    .map(|d| &d.view),
            );
        for w in written {
            for s in &pass.sampled {
                if s.texture == w.texture && s.mip == w.mip {
                    let name = self.view_name(w);
                    return Err(err(
                        name.clone(),
                        format!("samples '{name}', which it also renders to"),
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wgpu::TextureFormat as F;

    fn tex(label: &str, format: F, samples: u32, size: (u32, u32), mips: u32) -> TextureDecl {
        TextureDecl {
            label: label.into(),
            format,
            sample_count: samples,
            size,
            mip_levels: mips,
        }
    }

    /// A small, correct frame: MSAA scene resolved into hdr, a bloom
    /// downsample between mips, a composite into the canvas.
    fn good() -> (Graph, [usize; 5]) {
        let mut g = Graph::default();
        let msaa = g.texture(tex("msaa color", F::Rgba16Float, 4, (240, 136), 1));
        let depth = g.texture(tex("msaa depth", F::Depth24Plus, 4, (240, 136), 1));
        let hdr = g.texture(tex("hdr target", F::Rgba16Float, 1, (240, 136), 1));
        let bloom = g.texture(tex("bloom", F::Rg11b10Ufloat, 1, (120, 68), 5));
        let canvas = g.texture(tex("canvas", F::Rgba8Unorm, 1, (240, 136), 1));
        g.passes.push(PassDecl {
            name: "scene".into(),
            colors: vec![ColorDecl {
                view: g.view(msaa, 0),
                resolve_target: Some(g.view(hdr, 0)),
                pipeline_format: F::Rgba16Float,
            }],
            depth: Some(DepthDecl {
                view: g.view(depth, 0),
                read_only: false,
                pipeline_writes: true,
            }),
            pipeline_samples: 4,
            pipeline_depth: Some(F::Depth24Plus),
            sampled: vec![],
        });
        g.passes.push(PassDecl {
            name: "bloom downsample 3".into(),
            colors: vec![ColorDecl {
                view: g.view(bloom, 4),
                resolve_target: None,
                pipeline_format: F::Rg11b10Ufloat,
            }],
            depth: None,
            pipeline_samples: 1,
            pipeline_depth: None,
            sampled: vec![g.view(bloom, 3)],
        });
        g.passes.push(PassDecl {
            name: "composite".into(),
            colors: vec![ColorDecl {
                view: ViewDecl {
                    texture: canvas,
                    mip: 0,
                    format: F::Rgba8UnormSrgb,
                },
                resolve_target: None,
                pipeline_format: F::Rgba8UnormSrgb,
            }],
            depth: None,
            pipeline_samples: 1,
            pipeline_depth: None,
            sampled: vec![g.view(hdr, 0), g.view(bloom, 0)],
        });
        (g, [msaa, depth, hdr, bloom, canvas])
    }

    #[test]
    fn a_correct_graph_passes() {
        assert_eq!(good().0.validate(), Ok(()));
    }

    fn expect(g: &Graph, pass: &str, attachment: &str, needles: &[&str]) {
        let e = g.validate().expect_err("miswired graph accepted");
        assert_eq!(e.pass, pass, "{e}");
        assert_eq!(e.attachment, attachment, "{e}");
        for n in needles {
            assert!(e.to_string().contains(n), "{e} lacks {n}");
        }
    }

    #[test]
    fn format_mismatch_names_pass_and_target() {
        let (mut g, _) = good();
        g.passes[2].colors[0].pipeline_format = F::Rgba8Unorm;
        expect(
            &g,
            "composite",
            "canvas",
            &["pipeline writes Rgba8Unorm", "Rgba8UnormSrgb"],
        );
    }

    #[test]
    fn sample_count_mismatch() {
        let (mut g, _) = good();
        g.passes[0].pipeline_samples = 1;
        expect(&g, "scene", "msaa color", &["1 sample(s)", "has 4"]);
        let (mut g, [_, depth, ..]) = good();
        g.textures[depth].sample_count = 1;
        expect(&g, "scene", "msaa depth", &["depth 'msaa depth' has 1"]);
    }

    #[test]
    fn size_mismatch_names_both_attachments() {
        // A downsample whose depth was left at the previous size.
        let (mut g, [..]) = good();
        let depth = g.texture(tex("bloom depth", F::Depth24Plus, 1, (120, 68), 1));
        g.passes[1].depth = Some(DepthDecl {
            view: g.view(depth, 0),
            read_only: false,
            pipeline_writes: false,
        });
        g.passes[1].pipeline_depth = Some(F::Depth24Plus);
        expect(
            &g,
            "bloom downsample 3",
            "bloom depth",
            &["bloom downsample 3: depth 'bloom depth' is 120×68, target 'bloom mip 4' is 7×4"],
        );
        // A stale depth buffer after a resize.
        let (mut g, [_, depth, ..]) = good();
        g.textures[depth].size = (320, 200);
        expect(&g, "scene", "msaa depth", &["320×200", "240×136"]);
    }

    #[test]
    fn resolve_rules() {
        // Resolving from a single-sample view.
        let (mut g, [msaa, ..]) = good();
        g.textures[msaa].sample_count = 1;
        g.passes[0].pipeline_samples = 1;
        g.passes[0].depth = None;
        expect(&g, "scene", "msaa color", &["not multisampled"]);
        // Into a multisampled target.
        let (mut g, [_, _, hdr, ..]) = good();
        g.textures[hdr].sample_count = 4;
        expect(&g, "scene", "hdr target", &["must have 1"]);
        // Different format.
        let (mut g, [_, _, hdr, ..]) = good();
        g.textures[hdr].format = F::Rgba8Unorm;
        g.passes[0].colors[0].resolve_target = Some(g.view(hdr, 0));
        expect(&g, "scene", "hdr target", &["Rgba8Unorm", "Rgba16Float"]);
        // Different size.
        let (mut g, [_, _, hdr, ..]) = good();
        g.textures[hdr].size = (241, 136);
        expect(
            &g,
            "scene",
            "hdr target",
            &["resolve target 'hdr target' is 241×136"],
        );
    }

    #[test]
    fn sampling_what_the_pass_renders_to() {
        let (mut g, [_, _, _, bloom, _]) = good();
        g.passes[1].sampled = vec![g.view(bloom, 4)];
        expect(
            &g,
            "bloom downsample 3",
            "bloom mip 4",
            &["samples 'bloom mip 4'"],
        );
        // Another mip of the same texture is fine.
        let (mut g, [_, _, _, bloom, _]) = good();
        g.passes[1].sampled = vec![g.view(bloom, 2), g.view(bloom, 3)];
        assert_eq!(g.validate(), Ok(()));
    }

    #[test]
    fn a_read_only_depth_may_be_sampled_in_its_pass() {
        let mut g = Graph::default();
        let color = g.texture(tex("particles", F::Rgba16Float, 1, (64, 64), 1));
        let depth = g.texture(tex("depth", F::Depth32Float, 1, (64, 64), 1));
        let pass = |read_only| PassDecl {
            name: "soft particles".into(),
            colors: vec![ColorDecl {
                view: g.view(color, 0),
                resolve_target: None,
                pipeline_format: F::Rgba16Float,
            }],
            depth: Some(DepthDecl {
                view: g.view(depth, 0),
                read_only,
                pipeline_writes: false,
            }),
            pipeline_samples: 1,
            pipeline_depth: Some(F::Depth32Float),
            sampled: vec![g.view(depth, 0)],
        };
        let (allowed, refused) = (pass(true), pass(false));
        g.passes = vec![allowed];
        assert_eq!(g.validate(), Ok(()));
        g.passes = vec![refused];
        expect(
            &g,
            "soft particles",
            "depth",
            &["samples 'depth', which it also renders to"],
        );
    }

    #[test]
    fn views_must_exist() {
        let (mut g, [_, _, _, bloom, _]) = good();
        g.passes[1].colors[0].view = g.view(bloom, 5);
        expect(
            &g,
            "bloom downsample 3",
            "bloom",
            &["mip 5", "5 mip level(s)"],
        );
    }

    #[test]
    fn depth_attachment_and_pipeline_depth_state_agree() {
        // A pipeline without depth state in a pass with a depth attachment.
        let (mut g, _) = good();
        g.passes[0].pipeline_depth = None;
        expect(&g, "scene", "msaa depth", &["no depth state"]);
        // A pipeline with depth state in a pass without one.
        let (mut g, _) = good();
        g.passes[0].depth = None;
        expect(&g, "scene", "depth", &["no depth attachment"]);
        // Another depth format.
        let (mut g, _) = good();
        g.passes[0].pipeline_depth = Some(F::Depth32Float);
        expect(&g, "scene", "msaa depth", &["Depth32Float", "Depth24Plus"]);
    }
}
