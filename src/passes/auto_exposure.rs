//! Auto exposure (`autoExposure`): two compute passes between the HDR
//! effects and the bloom (see `shaders/auto_exposure.wgsl`) meter the
//! current HDR image and move the exposure in use towards mid grey, all in
//! GPU memory. The result is an `f32` multiplier in a storage buffer that
//! the pass publishes as the frame's `exposure` slot; the bloom extract and
//! the composite copy it into their uniforms before they run, so nothing
//! is read back to the CPU in the frame. The exposure in use is read back
//! asynchronously, a few frames late, for `stats()`.
//!
//! The state (the exposure in use) belongs to the pass, not the frame: it
//! survives resizes and rebuilds; a new chain (device loss) meters its
//! first frame and jumps to the target, as `reset_history` does.

use std::sync::Mutex;

use crate::error::Error;
use crate::frame::{FrameBuilder, FrameInfo, GpuValue};
use crate::gpu::Gpu;
use crate::options::{Metering, Options};
use crate::output::OutputSpec;
use crate::pass::{shader_module, uniform, Pass, Registration, Stage};
use crate::readback::StagedReadback;

pub const SHADER_PARTS: &[&str] = &[wgsl!("auto_exposure.wgsl")];

pub const PASS: Registration = Registration {
    stage: Stage::Measure,
    make: Some(|gpu| Box::new(AutoExposurePass::new(gpu))),
    #[cfg(test)]
    shaders: || vec![("auto exposure", crate::shaders::compose(SHADER_PARTS))],
    #[cfg(test)]
    uniforms: || {
        vec![crate::pass::uniform_layout::<AutoExposureParams>(
            SHADER_PARTS,
        )]
    },
};

uniform! {
    /// `AutoExposureParams` in auto_exposure.wgsl (layout checked by src/tests/shaders.rs).
    struct AutoExposureParams {
        min_ev: f32,
        max_ev: f32,
        compensation: f32,
        speed_brighten: f32,
        speed_darken: f32,
        low_percentile: f32,
        high_percentile: f32,
        exposure: f32,
        dt: f32,
        reset: u32,
        center: u32,
        stride: u32,
    }
}

// `prepare` writes `dt` and `reset` as one pair.
const _: () = assert!(
    std::mem::offset_of!(AutoExposureParams, reset)
        == std::mem::offset_of!(AutoExposureParams, dt) + 4
);

/// Bytes of `ExposureView`: 64 bins and the meter (see the shader).
pub const VIEW_SIZE: u64 = 17 * 16;
/// Byte offset of `multiplier` in `ExposureState`.
const MULTIPLIER_OFFSET: u64 = 4;
const STATE_SIZE: u64 = 16;
const HISTOGRAM_SIZE: u64 = 2 * 64 * 4;
/// The histogram reads about this many texels along the longer side
/// (about 36 000 at 16:9): in headless Chromium's software WebGPU, 512
/// cost 3.6 % of the frame at 1920×1080 (BENCHMARKS.md), 256 costs 1.4 %,
/// and the meter's tests (steps, flicker, dark against bright) hold.
const SAMPLES_ALONG: u32 = 256;
/// The longest time step a frame adapts by: a tab that comes back after
/// minutes neither jumps nor stalls.
const MAX_DT: f64 = 0.1;
/// The time step of a frame whose time did not advance (`render()` with
/// no time).
const NOMINAL_DT: f64 = 1.0 / 60.0;

/// What changes from frame to frame on the CPU side.
#[derive(Default)]
struct Clock {
    last_time: Option<f32>,
    reset: bool,
}

pub struct AutoExposurePass {
    layout: wgpu::BindGroupLayout,
    histogram_pipeline: wgpu::ComputePipeline,
    meter_pipeline: wgpu::ComputePipeline,
    histogram: wgpu::Buffer,
    state: wgpu::Buffer,
    /// What `debug: 'exposure'` draws, written by the meter.
    view: wgpu::Buffer,
    /// The uniforms: written whole by `write_params`, their `dt` and
    /// `reset` again by `prepare` every frame.
    params: wgpu::Buffer,
    clock: Mutex<Clock>,
    readback: ExposureReadback,
    /// The frame built last meters (auto exposure is on).
    active: std::sync::atomic::AtomicBool,
}

impl AutoExposurePass {
    pub fn new(gpu: &Gpu) -> AutoExposurePass {
        let module = shader_module(gpu, "auto exposure shader", SHADER_PARTS);
        let storage = |binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: false },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let layout = gpu.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("auto exposure bind group layout"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: false },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                storage(1),
                storage(2),
                storage(4),
                wgpu::BindGroupLayoutEntry {
                    binding: 3,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: crate::pass::UNIFORM,
                    count: None,
                },
            ],
        });
        let pl = crate::pass::pipeline_layout(gpu, "auto exposure pipeline layout", &[&layout]);
        let pipeline = |entry: &str| {
            gpu.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&pl),
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        let buffer = |label, size, usage| {
            gpu.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        use wgpu::BufferUsages as U;
        AutoExposurePass {
            histogram_pipeline: pipeline("cs_histogram"),
            meter_pipeline: pipeline("cs_meter"),
            layout,
            histogram: buffer("auto exposure histogram", HISTOGRAM_SIZE, U::STORAGE),
            state: buffer("auto exposure state", STATE_SIZE, U::STORAGE | U::COPY_SRC),
            view: buffer("auto exposure view", VIEW_SIZE, U::STORAGE | U::COPY_SRC),
            params: crate::pass::uniform_buffer(
                gpu,
                "auto exposure params",
                std::mem::size_of::<AutoExposureParams>(),
            ),
            clock: Mutex::default(),
            readback: ExposureReadback::new(gpu),
            active: Default::default(),
        }
    }
}

impl Pass for AutoExposurePass {
    /// Meters the current HDR image (off: nothing, and the slot stays
    /// empty, so the other passes use the manual exposure).
    fn build(&self, f: &mut FrameBuilder<'_>) -> Result<(), Error> {
        let on = f.settings.auto_exposure.enabled;
        self.active.store(on, std::sync::atomic::Ordering::Relaxed);
        if !on {
            return Ok(());
        }
        let hdr = f.hdr("auto exposure")?;
        let group = f.gpu.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("auto exposure bind group"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&hdr.view),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: self.histogram.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: self.state.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: self.params.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: self.view.as_entire_binding(),
                },
            ],
        });
        let (w, h) = f.size();
        let stride = stride((w, h));
        // A workgroup meters 64×64 samples (8×8 invocations of 8×8).
        let groups = |n: u32| n.div_ceil(stride).div_ceil(64).max(1);
        f.compute(
            "auto exposure histogram".into(),
            &self.histogram_pipeline,
            group.clone(),
            [groups(w), groups(h), 1],
            &[&hdr],
        );
        f.compute(
            "auto exposure meter".into(),
            &self.meter_pipeline,
            group,
            [1, 1, 1],
            &[],
        );
        f.slots.exposure = Some(GpuValue {
            buffer: self.state.clone(),
            offset: MULTIPLIER_OFFSET,
        });
        f.slots.exposure_view = Some(GpuValue {
            buffer: self.view.clone(),
            offset: 0,
        });
        Ok(())
    }

    fn write_params(&self, queue: &wgpu::Queue, s: &Options, _: &OutputSpec, info: &FrameInfo) {
        let a = &s.auto_exposure;
        let params = AutoExposureParams {
            min_ev: a.min_ev as f32,
            max_ev: a.max_ev as f32,
            compensation: a.compensation as f32,
            speed_brighten: a.speed_brighten as f32,
            speed_darken: a.speed_darken as f32,
            low_percentile: a.low_percentile as f32,
            high_percentile: a.high_percentile as f32,
            exposure: s.exposure as f32,
            // Written by `prepare` before every frame.
            dt: 0.0,
            reset: 0,
            center: u32::from(a.metering == Metering::Center),
            stride: stride(info.size),
        };
        queue.write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
    }

    /// The time step since the last frame and a pending reset (`dt` and
    /// `reset`, next to each other in the uniforms).
    fn prepare(&self, queue: &wgpu::Queue, _info: &FrameInfo, time: f32) {
        let Ok(mut clock) = self.clock.lock() else {
            return;
        };
        let dt = match clock.last_time {
            Some(last) if time > last => (time - last) as f64,
            // The first frame, a time that stood still or went back (the
            // shaders' time wraps every few hours).
            _ => NOMINAL_DT,
        };
        clock.last_time = Some(time);
        let reset = u32::from(std::mem::take(&mut clock.reset));
        // The clock keeps time while metering is off, as before; the
        // uniforms are not read then (no step is recorded), and turning
        // metering on rebuilds the frame, which writes them whole. Writing
        // them anyway cost every frame a `writeBuffer` call.
        if !self.active.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        let frame: [u32; 2] = [(dt.min(MAX_DT) as f32).to_bits(), reset];
        let offset = std::mem::offset_of!(AutoExposureParams, dt) as u64;
        queue.write_buffer(&self.params, offset, bytemuck::bytes_of(&frame));
    }

    fn reset_history(&self) {
        if let Ok(mut clock) = self.clock.lock() {
            clock.reset = true;
        }
    }

    fn finish_frame(&self, encoder: &mut wgpu::CommandEncoder) {
        if self.active.load(std::sync::atomic::Ordering::Relaxed) {
            self.readback.copy(encoder, &self.state);
        }
    }

    /// The exposure in use; none while off (the last one read back stays
    /// for when it is turned on again, where metering resumes from it).
    fn report(&self, stats: &mut crate::pass::PassReport) {
        if !self.active.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        if let Some(ev) = self.readback.latest() {
            stats.exposure_ev = Some(ev);
        }
    }
}

/// Every how many texels the histogram reads one, per axis.
fn stride(size: (u32, u32)) -> u32 {
    size.0.max(size.1).div_ceil(SAMPLES_ALONG).max(1)
}

/// The exposure in use, as last read back (`StagedReadback`: never a
/// stall), from `ExposureState`.
struct ExposureReadback {
    staged: StagedReadback,
    latest: Mutex<Option<f64>>,
}

impl ExposureReadback {
    fn new(gpu: &Gpu) -> ExposureReadback {
        ExposureReadback {
            staged: StagedReadback::new(gpu, "auto exposure readback", STATE_SIZE),
            latest: Mutex::new(None),
        }
    }

    /// Takes a finished mapping, then copies this frame's state if the
    /// buffer is free.
    fn copy(&self, encoder: &mut wgpu::CommandEncoder, state: &wgpu::Buffer) {
        self.collect();
        self.staged.copy(encoder, state);
    }

    fn collect(&self) {
        let Some(data) = self.staged.take() else {
            return;
        };
        let word = |i: usize| Some(<[u8; 4]>::try_from(data.get(4 * i..4 * i + 4)?).ok()?);
        let multiplier = word(1).map(f32::from_le_bytes);
        let metered = word(2).map(u32::from_le_bytes);
        if let (Some(m), Some(1), Ok(mut latest)) = (multiplier, metered, self.latest.lock()) {
            if m > 0.0 {
                *latest = Some((m as f64).log2());
            }
        }
    }

    fn latest(&self) -> Option<f64> {
        self.collect();
        self.latest.lock().ok().and_then(|l| *l)
    }
}
