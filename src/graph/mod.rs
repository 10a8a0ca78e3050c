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
//! - no pass samples a subresource (texture + mip) that it writes;
//! - a pass writes only into textures the chain owns (or the output), and
//!   every texture has the usage its role needs (`RENDER_ATTACHMENT` to be
//!   rendered to, `STORAGE_BINDING` and a storage format to be written by
//!   a compute pass, `TEXTURE_BINDING` to be sampled).

// A release build for the web leaves these checks to the browser (see
// `FrameBuilder::finish`): there they are compiled but never called.
#![cfg_attr(all(target_arch = "wasm32", not(debug_assertions)), allow(dead_code))]

use std::fmt;

use crate::formats::name as name_of;

/// Who a texture of the frame belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// Created by the frame: its passes may render into it.
    Chain,
    /// Made outside the frame (an app's scene or emissive texture, the
    /// look's textures, a table computed once per device): only sampled,
    /// never destroyed or recycled by the frame.
    Caller,
    /// What the frame is recorded into (the canvas, a program's surface):
    /// rendered into by the last pass.
    Output,
}

/// A texture as the graph sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureDecl {
    pub label: String,
    pub format: wgpu::TextureFormat,
    pub sample_count: u32,
    /// Size of mip 0.
    pub size: (u32, u32),
    pub mip_levels: u32,
    pub owner: Owner,
    pub usage: wgpu::TextureUsages,
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

/// A render or compute pass: what it writes, what it reads, what its
/// pipeline expects.
#[derive(Clone, Debug, PartialEq)]
pub struct PassDecl {
    pub name: String,
    pub colors: Vec<ColorDecl>,
    /// Views a compute pass writes as storage textures.
    pub storage: Vec<ViewDecl>,
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
        self.check_views(pass, &err)?;
        self.check_roles(pass, &err)?;
        let mut sizes = SameSize::default();
        self.check_colors(pass, &mut sizes, &err)?;
        self.check_depth(pass, &mut sizes, &err)?;
        self.check_subresources(pass, &err)
    }

    /// Every view exists, names an existing mip, and sees its texture in
    /// its format or the `-srgb` twin.
    fn check_views(&self, pass: &PassDecl, err: &Err<'_>) -> Result<(), GraphError> {
        for v in written(pass).chain(pass.sampled.iter()) {
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
                            "view of '{}' as {}, but the texture is {}",
                            t.label,
                            name_of(v.format),
                            name_of(t.format)
                        ),
                    ))
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// A pass renders only into the chain's own textures or the output,
    /// and each texture has the usage of what the pass does with it.
    fn check_roles(&self, pass: &PassDecl, err: &Err<'_>) -> Result<(), GraphError> {
        for v in written(pass) {
            let t = &self.textures[v.texture];
            if t.owner == Owner::Caller {
                return Err(err(
                    t.label.clone(),
                    format!(
                        "renders into '{}', a texture the caller owns; a pass writes only the \
                         chain's own targets (an HDR effect takes one with swap_hdr)",
                        t.label
                    ),
                ));
            }
            let stored = pass.storage.contains(v);
            if !stored && !t.usage.contains(wgpu::TextureUsages::RENDER_ATTACHMENT) {
                return Err(err(
                    t.label.clone(),
                    format!(
                        "renders into '{}', which lacks RENDER_ATTACHMENT usage",
                        t.label
                    ),
                ));
            }
        }
        for v in &pass.storage {
            let t = &self.textures[v.texture];
            if !t.usage.contains(wgpu::TextureUsages::STORAGE_BINDING) {
                return Err(err(
                    t.label.clone(),
                    format!("writes '{}', which lacks STORAGE_BINDING usage", t.label),
                ));
            }
            if !crate::formats::is_storage(v.format) || t.sample_count > 1 {
                return Err(err(
                    t.label.clone(),
                    format!(
                        "writes '{}' as a storage texture, which WebGPU allows only for \
                         single-sampled rgba8unorm, rgba16float, r32float and the other \
                         storage formats (it is {}, {} sample(s))",
                        t.label,
                        name_of(v.format),
                        t.sample_count
                    ),
                ));
            }
        }
        for v in &pass.sampled {
            let t = &self.textures[v.texture];
            if !t.usage.contains(wgpu::TextureUsages::TEXTURE_BINDING) {
                return Err(err(
                    t.label.clone(),
                    format!("samples '{}', which lacks TEXTURE_BINDING usage", t.label),
                ));
            }
        }
        Ok(())
    }

    /// Color attachments and their resolve targets: the pipeline's format
    /// and sample count, one size, the resolve rules.
    fn check_colors(
        &self,
        pass: &PassDecl,
        sizes: &mut SameSize,
        err: &Err<'_>,
    ) -> Result<(), GraphError> {
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
                        "pipeline writes {} but {role} '{name}' is viewed as {}",
                        name_of(c.pipeline_format),
                        name_of(c.view.format)
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
            sizes.check(self, &role, &c.view, err)?;
            if let Some(r) = &c.resolve_target {
                self.check_resolve(&name, samples, c.view.format, r, err)?;
                sizes.check(self, "resolve target", r, err)?;
            }
        }
        Ok(())
    }

    /// A resolve goes from a multisampled view into a single-sampled one
    /// of the same format.
    fn check_resolve(
        &self,
        name: &str,
        samples: u32,
        format: wgpu::TextureFormat,
        r: &ViewDecl,
        err: &Err<'_>,
    ) -> Result<(), GraphError> {
        let rname = self.view_name(r);
        if samples <= 1 {
            return Err(err(
                name.into(),
                format!("resolves '{name}' into '{rname}' but '{name}' is not multisampled"),
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
        if r.format != format {
            return Err(err(
                rname.clone(),
                format!(
                    "resolve target '{rname}' is {} but '{name}' is {}",
                    name_of(r.format),
                    name_of(format)
                ),
            ));
        }
        Ok(())
    }

    /// The depth attachment agrees with the pipeline's depth state, sample
    /// count and write mask, and has the attachments' size.
    fn check_depth(
        &self,
        pass: &PassDecl,
        sizes: &mut SameSize,
        err: &Err<'_>,
    ) -> Result<(), GraphError> {
        let d = match (&pass.depth, pass.pipeline_depth) {
            (None, None) => return Ok(()),
            (None, Some(format)) => {
                return Err(err(
                    "depth".into(),
                    format!(
                        "pipeline expects depth {} but the pass has no depth attachment",
                        name_of(format)
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
                        "pipeline expects depth {} but depth '{name}' is {}",
                        name_of(format),
                        name_of(d.view.format)
                    ),
                ));
            }
            (Some(d), Some(_)) => d,
        };
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
        sizes.check(self, "depth", &d.view, err)?;
        if d.read_only && d.pipeline_writes {
            return Err(err(
                name.clone(),
                format!("depth '{name}' is read-only but the pipeline writes depth"),
            ));
        }
        Ok(())
    }

    /// The same-subresource rule. A read-only depth attachment is not
    /// written, so the pass may sample it (soft particles, fog).
    fn check_subresources(&self, pass: &PassDecl, err: &Err<'_>) -> Result<(), GraphError> {
        let rendered = pass
            .colors
            .iter()
            .flat_map(|c| std::iter::once(&c.view).chain(c.resolve_target.as_ref()))
            .chain(&pass.storage)
            .chain(
                pass.depth
                    .as_ref()
                    .filter(|d| !d.read_only)
                    .map(|d| &d.view),
            );
        for w in rendered {
            for s in &pass.sampled {
                if s.texture == w.texture && s.mip == w.mip {
                    let name = self.view_name(w);
                    return Err(err(
                        name.clone(),
                        format!("samples '{name}', which it also writes"),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// How a pass's checks make their error: the attachment and the message.
type Err<'a> = dyn Fn(String, String) -> GraphError + 'a;

/// Every view a pass attaches or writes: colors, resolve targets, depth,
/// storage textures.
fn written(pass: &PassDecl) -> impl Iterator<Item = &ViewDecl> {
    pass.colors
        .iter()
        .flat_map(|c| std::iter::once(&c.view).chain(c.resolve_target.as_ref()))
        .chain(pass.depth.as_ref().map(|d| &d.view))
        .chain(&pass.storage)
}

/// The size every attachment of a pass must share: the first one's.
#[derive(Default)]
struct SameSize {
    first: Option<(String, String, (u32, u32))>,
}

impl SameSize {
    fn check(
        &mut self,
        graph: &Graph,
        role: &str,
        v: &ViewDecl,
        err: &Err<'_>,
    ) -> Result<(), GraphError> {
        let name = graph.view_name(v);
        let size = graph.view_size(v);
        match &self.first {
            None => {
                self.first = Some((role.to_string(), name, size));
                Ok(())
            }
            Some((first_role, first_name, first_size)) if *first_size != size => Err(err(
                name.clone(),
                format!(
                    "{role} '{name}' is {}, {first_role} '{first_name}' is {}",
                    fmt_size(size),
                    fmt_size(*first_size)
                ),
            )),
            Some(_) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests;
