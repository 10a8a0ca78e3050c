//! The graph's rules, each broken on purpose in an otherwise correct frame.
use super::*;
use wgpu::TextureFormat as F;

fn tex(label: &str, format: F, samples: u32, size: (u32, u32), mips: u32) -> TextureDecl {
    TextureDecl {
        label: label.into(),
        format,
        sample_count: samples,
        size,
        mip_levels: mips,
        owner: if label == "canvas" {
            Owner::Output
        } else {
            Owner::Chain
        },
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
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
        storage: vec![],
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
        storage: vec![],
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
        storage: vec![],
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
        &["pipeline writes rgba8unorm but", "rgba8unorm-srgb"],
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
    expect(
        &g,
        "scene",
        "hdr target",
        &["is rgba8unorm but", "is rgba16float"],
    );
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
        storage: vec![],
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
        &["samples 'depth', which it also writes"],
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
    expect(
        &g,
        "scene",
        "msaa depth",
        &["depth32float", "is depth24plus"],
    );
}

#[test]
fn a_compute_pass_writes_storage_it_may_write() {
    let mut g = Graph::default();
    let usage = wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::TEXTURE_BINDING;
    let mut edges = tex("edges", F::Rgba8Unorm, 1, (64, 64), 1);
    edges.usage = usage;
    let edges = g.texture(edges);
    let mut narrow = tex("narrow", F::Rg8Unorm, 1, (64, 64), 1);
    narrow.usage = usage;
    let narrow = g.texture(narrow);
    let image = g.texture(tex("image", F::Rgba16Float, 1, (64, 64), 1));
    let pass = |g: &Graph, target: usize, sampled: usize| PassDecl {
        name: "edges".into(),
        storage: vec![g.view(target, 0)],
        colors: vec![],
        depth: None,
        pipeline_samples: 1,
        pipeline_depth: None,
        sampled: vec![g.view(sampled, 0)],
    };
    g.passes = vec![pass(&g, edges, image)];
    assert_eq!(g.validate(), Ok(()));
    // A render target without STORAGE_BINDING.
    g.passes = vec![pass(&g, image, edges)];
    expect(&g, "edges", "image", &["lacks STORAGE_BINDING"]);
    // A format WebGPU does not store.
    g.passes = vec![pass(&g, narrow, image)];
    expect(&g, "edges", "narrow", &["storage texture", "rg8unorm"]);
    // Read and written in one pass.
    g.passes = vec![pass(&g, edges, edges)];
    expect(
        &g,
        "edges",
        "edges",
        &["samples 'edges', which it also writes"],
    );
}
