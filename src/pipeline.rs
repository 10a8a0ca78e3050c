//! Render pipelines and their layouts, made the same way for every pass:
//! a [`Pipe`] keeps what the pipeline was created for, so the pass graph
//! can check it against the attachments it is used with.

use std::hash::{Hash, Hasher};
use std::sync::Mutex;

use crate::gpu::Gpu;

/// A render pipeline together with what it was created for, so the pass
/// graph can check it against the attachments it is used with.
#[derive(Clone)]
pub struct Pipe {
    pub raw: wgpu::RenderPipeline,
    pub color_format: wgpu::TextureFormat,
    pub depth_format: Option<wgpu::TextureFormat>,
    /// The pipeline writes depth.
    pub depth_write: bool,
    pub samples: u32,
}

/// How a pipeline's fragment output is combined with the target.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Blend {
    Replace,
    /// `one + one`: accumulate (bloom upsample).
    Add,
}

/// Everything that varies between the crate's render pipelines.
pub struct PipeDesc<'a> {
    pub label: &'a str,
    pub layout: &'a wgpu::PipelineLayout,
    pub module: &'a wgpu::ShaderModule,
    pub vertex_entry: &'a str,
    pub fragment_entry: &'a str,
    pub color_format: wgpu::TextureFormat,
    pub blend: Blend,
    /// Depth attachment format and whether the pipeline tests and writes it.
    pub depth: Option<(wgpu::TextureFormat, bool)>,
    pub samples: u32,
    /// Values of the fragment stage's `override` constants, by name: a
    /// pipeline specialised to settings that would otherwise be run-time
    /// branches (which a software rasterizer executes on every path).
    pub constants: &'a [(&'a str, f64)],
}

pub fn pipeline(gpu: &Gpu, d: &PipeDesc<'_>) -> Pipe {
    let blend = match d.blend {
        Blend::Replace => None,
        Blend::Add => Some(wgpu::BlendState {
            color: wgpu::BlendComponent {
                src_factor: wgpu::BlendFactor::One,
                dst_factor: wgpu::BlendFactor::One,
                operation: wgpu::BlendOperation::Add,
            },
            alpha: wgpu::BlendComponent::REPLACE,
        }),
    };
    let raw = gpu.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(d.label),
        layout: Some(d.layout),
        vertex: wgpu::VertexState {
            module: d.module,
            entry_point: Some(d.vertex_entry),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: d.depth.map(|(format, test)| wgpu::DepthStencilState {
            format,
            depth_write_enabled: Some(test),
            depth_compare: Some(if test {
                wgpu::CompareFunction::Less
            } else {
                wgpu::CompareFunction::Always
            }),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: wgpu::MultisampleState {
            count: d.samples,
            ..Default::default()
        },
        fragment: Some(wgpu::FragmentState {
            module: d.module,
            entry_point: Some(d.fragment_entry),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: d.constants,
                ..Default::default()
            },
            targets: &[Some(wgpu::ColorTargetState {
                format: d.color_format,
                blend,
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    });
    Pipe {
        raw,
        color_format: d.color_format,
        depth_format: d.depth.map(|(f, _)| f),
        depth_write: d.depth.is_some_and(|(_, test)| test),
        samples: d.samples,
    }
}

/// A bind group layout entry visible to the full-screen stages, drawn or
/// run as compute.
pub fn entry(binding: u32, ty: wgpu::BindingType) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT
            | wgpu::ShaderStages::VERTEX
            | wgpu::ShaderStages::COMPUTE,
        ty,
        count: None,
    }
}

/// The image a compute pass writes (`FrameBuilder::compute_image`): a
/// write-only storage texture of `format`.
pub fn storage_entry(binding: u32, format: wgpu::TextureFormat) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::StorageTexture {
            access: wgpu::StorageTextureAccess::WriteOnly,
            format,
            view_dimension: wgpu::TextureViewDimension::D2,
        },
        count: None,
    }
}

/// A compute pipeline of `entry` in `module`, its `override` constants set
/// by name (as [`PipeDesc::constants`]).
pub fn compute_pipeline(
    gpu: &Gpu,
    label: &str,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    entry: &str,
    constants: &[(&str, f64)],
) -> wgpu::ComputePipeline {
    gpu.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        module,
        entry_point: Some(entry),
        compilation_options: wgpu::PipelineCompilationOptions {
            constants,
            ..Default::default()
        },
        cache: None,
    })
}

pub const UNIFORM: wgpu::BindingType = wgpu::BindingType::Buffer {
    ty: wgpu::BufferBindingType::Uniform,
    has_dynamic_offset: false,
    min_binding_size: None,
};

pub const FILTERABLE_TEXTURE: wgpu::BindingType = wgpu::BindingType::Texture {
    sample_type: wgpu::TextureSampleType::Float { filterable: true },
    view_dimension: wgpu::TextureViewDimension::D2,
    multisampled: false,
};

pub const FILTERING_SAMPLER: wgpu::BindingType =
    wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering);

pub fn layout(
    gpu: &Gpu,
    label: &str,
    entries: &[wgpu::BindGroupLayoutEntry],
) -> wgpu::BindGroupLayout {
    gpu.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries,
    })
}

pub fn pipeline_layout(
    gpu: &Gpu,
    label: &str,
    groups: &[&wgpu::BindGroupLayout],
) -> wgpu::PipelineLayout {
    let groups: Vec<Option<&wgpu::BindGroupLayout>> = groups.iter().map(|g| Some(*g)).collect();
    gpu.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(label),
        bind_group_layouts: &groups,
        immediate_size: 0,
    })
}

pub fn uniform_buffer(gpu: &Gpu, label: &str, size: usize) -> wgpu::Buffer {
    gpu.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// A pass's uniform buffer, made anew for every frame the pass builds: a
/// frame already recorded (into a caller's encoder not yet submitted)
/// keeps the buffer, and so the values, it was recorded with when a change
/// of options or size rebuilds the frame. Changes that only rewrite
/// uniforms reach the current frame's buffer, like any `write_buffer`.
pub struct FrameUniform {
    label: &'static str,
    size: usize,
    current: std::sync::Mutex<wgpu::Buffer>,
}

impl FrameUniform {
    pub fn new(gpu: &Gpu, label: &'static str, size: usize) -> FrameUniform {
        FrameUniform {
            label,
            size,
            current: std::sync::Mutex::new(uniform_buffer(gpu, label, size)),
        }
    }

    /// A new buffer for a frame being built, which becomes the current one.
    pub fn renew(&self, gpu: &Gpu) -> wgpu::Buffer {
        let buffer = uniform_buffer(gpu, self.label, self.size);
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = buffer.clone();
        buffer
    }

    /// The buffer of the frame built last.
    pub fn current(&self) -> wgpu::Buffer {
        self.current
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub fn write(&self, queue: &wgpu::Queue, bytes: &[u8]) {
        queue.write_buffer(&self.current(), 0, bytes);
    }
}

pub fn linear_sampler(gpu: &Gpu, label: &str) -> wgpu::Sampler {
    gpu.create_sampler(&wgpu::SamplerDescriptor {
        label: Some(label),
        address_mode_u: wgpu::AddressMode::ClampToEdge,
        address_mode_v: wgpu::AddressMode::ClampToEdge,
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        ..Default::default()
    })
}

/// Pipelines specialised by a key (override constants), made on first use
/// and kept: one per combination of settings actually used, found by the
/// key (its floats held as their bits, so that it hashes). Behind a mutex
/// (uncontended: the chain is used from one thread at a time) so a chain
/// can be shared between threads.
///
/// The entries are found by the key's hash, in an index sorted by it
/// (binary search), then compared whole. A cache holds a few entries, so
/// this is as quick as a hash map; and the index is one type for every
/// cache, where a hash map's code, made again for each cache's types,
/// would be kilobytes of download.
pub struct PipeCache<K, P = Pipe> {
    pipes: Mutex<(HashIndex, Vec<(K, P)>)>,
}

/// Positions in a list, sorted by the hash of what each holds.
#[derive(Default)]
struct HashIndex(Vec<(u64, usize)>);

impl HashIndex {
    /// The hash of `key` (Fx: a multiply per word; the keys are a few
    /// words of settings, none chosen by an adversary).
    fn hash(key: &impl Hash) -> u64 {
        let mut h = rustc_hash::FxHasher::default();
        key.hash(&mut h);
        h.finish()
    }

    /// Where entries of this hash begin in the index (binary search).
    fn start(&self, hash: u64) -> usize {
        self.0.partition_point(|e| e.0 < hash)
    }

    /// The position in the list of the index's entry `at`, if it has this
    /// hash.
    fn position(&self, at: usize, hash: u64) -> Option<usize> {
        self.0.get(at).filter(|e| e.0 == hash).map(|e| e.1)
    }

    fn insert(&mut self, at: usize, hash: u64, position: usize) {
        self.0.insert(at, (hash, position));
    }
}

impl<K: Eq + Hash + Copy, P: Clone> PipeCache<K, P> {
    pub fn new() -> Self {
        PipeCache {
            pipes: Mutex::new((HashIndex::default(), Vec::new())),
        }
    }

    /// The pipeline for `key`, made with `make` the first time.
    pub fn get(&self, key: K, make: impl FnOnce() -> P) -> P {
        let hash = HashIndex::hash(&key);
        // A panic while the lock was held left nothing half-written: an
        // entry is added once `make` has returned it.
        let mut lock = self.pipes.lock().unwrap_or_else(|e| e.into_inner());
        let (index, pipes) = &mut *lock;
        let mut at = index.start(hash);
        while let Some(i) = index.position(at, hash) {
            match pipes.get(i) {
                Some((k, pipe)) if *k == key => return pipe.clone(),
                _ => at += 1,
            }
        }
        let pipe = make();
        index.insert(at, hash, pipes.len());
        pipes.push((key, pipe.clone()));
        pipe
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.pipes.lock().map_or(0, |p| p.1.len())
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.pipes.lock().map_or(true, |p| p.1.is_empty())
    }
}

impl<K: Eq + Hash + Copy, P: Clone> Default for PipeCache<K, P> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod cache_tests {
    use super::PipeCache;

    /// Each key is made once and found again, in any order, among many.
    #[test]
    fn a_cache_makes_each_key_once_and_finds_it_again() {
        let cache: PipeCache<(u32, bool), u32> = PipeCache::new();
        let mut made = 0;
        for round in 0..3 {
            for i in (0..200u32).map(|i| (i * 7919) % 200) {
                let got = cache.get((i, i % 3 == 0), || {
                    made += 1;
                    i * 10
                });
                assert_eq!(got, i * 10, "round {round}, key {i}");
            }
        }
        assert_eq!((made, cache.len()), (200, 200));
        // Keys that differ only in a field the hash also sees.
        assert_eq!(cache.get((3, false), || 1), 1);
        assert_eq!(cache.get((3, true), || 2), 30);
    }
}
