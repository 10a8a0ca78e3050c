//! GPU time per pass, from timestamp queries written at the start and end
//! of every render and compute pass (the only places WebGPU allows them).
//!
//! Reading results back is asynchronous: after a frame is submitted the
//! resolved timestamps are copied to a mappable buffer and mapped; a later
//! frame picks the values up. While a readback is in flight, frames are
//! simply not timed, so timing never stalls rendering. Everything is made
//! when the frame is (re)built, never per frame.

use std::sync::{Arc, Mutex};

use crate::gpu::Gpu;

/// GPU milliseconds of each pass of one frame, in frame order.
pub type PassTimes = Vec<(String, f64)>;

#[derive(Default)]
struct Shared {
    /// The read buffer is mapped (or being mapped): do not copy into it.
    busy: bool,
    /// Set by the map callback.
    mapped: bool,
    failed: bool,
}

pub struct Timing {
    queries: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    read: wgpu::Buffer,
    names: Vec<String>,
    /// Nanoseconds per timestamp tick.
    period: f64,
    shared: Arc<Mutex<Shared>>,
    /// Whether this frame's encoder copied into the read buffer.
    copied: Mutex<bool>,
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
        let read = gpu.create_buffer(&wgpu::BufferDescriptor {
            label: Some("pass timestamps read"),
            size: bytes,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        Some(Timing {
            queries,
            resolve,
            read,
            names,
            period: gpu.queue.get_timestamp_period() as f64,
            shared: Arc::default(),
            copied: Mutex::new(false),
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
        let free = self.shared.lock().map(|s| !s.busy).unwrap_or(false);
        if free {
            encoder.copy_buffer_to_buffer(&self.resolve, 0, &self.read, 0, count as u64 * 8);
        }
        if let Ok(mut c) = self.copied.lock() {
            *c = free;
        }
    }

    /// After submitting: starts mapping the read buffer if this frame
    /// copied into it.
    pub fn after_submit(&self) {
        let copied = self
            .copied
            .lock()
            .map(|mut c| std::mem::take(&mut *c))
            .unwrap_or(false);
        if !copied {
            return;
        }
        if let Ok(mut s) = self.shared.lock() {
            s.busy = true;
        }
        let shared = self.shared.clone();
        self.read
            .slice(..)
            .map_async(wgpu::MapMode::Read, move |r| {
                if let Ok(mut s) = shared.lock() {
                    s.mapped = r.is_ok();
                    s.failed = r.is_err();
                }
            });
    }

    /// Reads a mapped result, if one has arrived, and frees the buffer.
    fn collect(&self) {
        let (mapped, failed) = match self.shared.lock() {
            Ok(s) => (s.mapped, s.failed),
            Err(_) => return,
        };
        if failed {
            // wgpu keeps the failed mapping until unmap; free it for the next.
            self.read.unmap();
            if let Ok(mut s) = self.shared.lock() {
                *s = Shared::default();
            }
            return;
        }
        if !mapped {
            return;
        }
        let times = match self.read.slice(..).get_mapped_range() {
            Ok(view) => {
                // Copied out byte-wise: the mapped range need not be 8-aligned.
                let ticks: Vec<u64> = view
                    .chunks_exact(8)
                    .map(|c| u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
                    .collect();
                Some(
                    self.names
                        .iter()
                        .enumerate()
                        .map(|(i, name)| {
                            let (a, b) = (ticks[2 * i], ticks[2 * i + 1]);
                            (
                                name.clone(),
                                b.saturating_sub(a) as f64 * self.period / 1.0e6,
                            )
                        })
                        .collect(),
                )
            }
            Err(_) => None,
        };
        self.read.unmap();
        if let Ok(mut s) = self.shared.lock() {
            *s = Shared::default();
        }
        if let (Some(times), Ok(mut latest)) = (times, self.latest.lock()) {
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
/// set and buffers are returned then. A read buffer still being mapped is
/// left to finish and be collected, so its pending map is not aborted.
impl Drop for Timing {
    fn drop(&mut self) {
        self.queries.destroy();
        self.resolve.destroy();
        let busy = self.shared.lock().map(|s| s.busy).unwrap_or(true);
        if !busy {
            self.read.destroy();
        }
    }
}
