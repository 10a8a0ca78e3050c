//! GPU time per pass, from timestamp queries written at the start and end
//! of every render and compute pass (the only places WebGPU allows them).
//!
//! Reading results back is asynchronous: after a frame is submitted the
//! resolved timestamps are copied to a mappable buffer and mapped; a later
//! frame picks the values up. While a readback is in flight, frames are
//! simply not timed, so timing never stalls rendering. Everything is made
//! when the frame is (re)built, never per frame.

use std::sync::Mutex;

use crate::gpu::Gpu;
use crate::readback::StagedReadback;

/// GPU milliseconds of each pass of one frame, in frame order.
pub type PassTimes = Vec<(String, f64)>;

pub struct Timing {
    queries: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    read: StagedReadback,
    names: Vec<String>,
    /// Nanoseconds per timestamp tick.
    period: f64,
    latest: Mutex<Option<PassTimes>>,
}

impl Timing {
    /// Timing for passes named `names`, or `None` where the device has no
    /// timestamp queries.
    pub fn new(gpu: &Gpu, names: Vec<String>) -> Option<Timing> {
        if !gpu.features.contains(wgpu::Features::TIMESTAMP_QUERY) || names.is_empty() {
            return None;
        }
        let count = names.len() as u32 * 2;
        let bytes = count as u64 * 8;
        let queries = gpu.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("pass timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count,
        });
        let resolve = gpu.create_buffer(&wgpu::BufferDescriptor {
            label: Some("pass timestamps resolve"),
            size: bytes,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let read = StagedReadback::new(gpu, "pass timestamps read", bytes);
        Some(Timing {
            queries,
            resolve,
            read,
            names,
            period: gpu.queue.get_timestamp_period() as f64,
            latest: Mutex::new(None),
        })
    }

    /// The timestamp writes for pass number `index` of the frame.
    pub fn writes(&self, index: usize) -> wgpu::RenderPassTimestampWrites<'_> {
        wgpu::RenderPassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: Some(index as u32 * 2),
            end_of_pass_write_index: Some(index as u32 * 2 + 1),
        }
    }

    /// The same, for a compute pass.
    pub fn compute_writes(&self, index: usize) -> wgpu::ComputePassTimestampWrites<'_> {
        wgpu::ComputePassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: Some(index as u32 * 2),
            end_of_pass_write_index: Some(index as u32 * 2 + 1),
        }
    }

    /// Before submitting: collects a finished readback, then resolves this
    /// frame's timestamps and, if the read buffer is free, copies them.
    pub fn finish_frame(&self, encoder: &mut wgpu::CommandEncoder) {
        self.collect();
        let count = self.names.len() as u32 * 2;
        encoder.resolve_query_set(&self.queries, 0..count, &self.resolve, 0);
        self.read.copy(encoder, &self.resolve);
    }

    /// Reads a mapped result, if one has arrived, and frees the buffer.
    fn collect(&self) {
        let Some(bytes) = self.read.take() else {
            return;
        };
        // Copied out byte-wise: the mapped range need not be 8-aligned.
        let ticks: Vec<u64> = bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
            .collect();
        let times = self
            .names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let (a, b) = (ticks[2 * i], ticks[2 * i + 1]);
                (
                    name.clone(),
                    b.saturating_sub(a) as f64 * self.period / 1.0e6,
                )
            })
            .collect();
        if let Ok(mut latest) = self.latest.lock() {
            *latest = Some(times);
        }
    }

    /// The most recent per-pass GPU times, if any frame's have arrived.
    pub fn latest(&self) -> Option<PassTimes> {
        self.collect();
        self.latest.lock().ok().and_then(|l| l.clone())
    }
}

/// Timing is replaced with its frame (resize, a shape change): its query
/// set and buffers are returned then (the read buffer by its own drop,
/// which leaves a pending map to finish).
impl Drop for Timing {
    fn drop(&mut self) {
        self.queries.destroy();
        self.resolve.destroy();
    }
}
