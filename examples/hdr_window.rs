//! A window on an HDR display: `cargo run --example hdr_window`.
//!
//! It asks the surface which colour spaces it offers for which formats and
//! takes the most capable (HDR10's PQ, then scRGB, extended Display P3 and
//! sRGB, then Display P3 and sRGB), configures the surface with it, and
//! tells afterglow the same ([`afterglow::Output`]). The headroom comes
//! from the display ([`afterglow::display_headroom`]) and is read again
//! whenever the window moves, since another display may have another. The
//! title says what was chosen. The picture is a row of lights from 0.5 to
//! 32 times SDR white over a dim ramp: on an SDR display the brighter ones
//! all reach white, on an HDR one they keep rising to the headroom.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let event_loop = winit::event_loop::EventLoop::new()?;
    let mut app = native::App::default();
    event_loop.run_app(&mut app)?;
    match app.failure {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::sync::Arc;

    use afterglow::{wgpu, Options, Output, PostChain, ToneMapping};
    use wgpu::SurfaceColorSpace as S;
    use wgpu::TextureFormat as F;
    use winit::application::ApplicationHandler;
    use winit::event::WindowEvent;
    use winit::event_loop::ActiveEventLoop;
    use winit::window::{Window, WindowId};

    /// The colour spaces to try, most capable first, each with the formats
    /// afterglow writes it to.
    const PREFERENCE: &[(S, &[F])] = &[
        (S::Bt2100Pq, &[F::Rgb10a2Unorm, F::Rgba16Float]),
        (S::ExtendedSrgbLinear, &[F::Rgba16Float]),
        (S::ExtendedDisplayP3, &[F::Rgba16Float]),
        (S::ExtendedSrgb, &[F::Rgba16Float]),
        (S::DisplayP3, SDR),
        (S::Srgb, SDR),
    ];

    /// The SDR formats afterglow writes, `-srgb` views first.
    const SDR: &[F] = &[
        F::Bgra8UnormSrgb,
        F::Rgba8UnormSrgb,
        F::Bgra8Unorm,
        F::Rgba8Unorm,
    ];

    /// Whether `space` carries light above SDR white.
    fn is_hdr(space: S) -> bool {
        !matches!(space, S::Srgb | S::DisplayP3)
    }

    #[derive(Default)]
    pub struct App {
        state: Option<State>,
        pub failure: Option<String>,
    }

    struct State {
        window: Arc<Window>,
        surface: wgpu::Surface<'static>,
        adapter: wgpu::Adapter,
        device: wgpu::Device,
        queue: wgpu::Queue,
        config: wgpu::SurfaceConfiguration,
        post: PostChain,
        options: Options,
        scene: wgpu::TextureView,
    }

    impl ApplicationHandler for App {
        fn resumed(&mut self, event_loop: &ActiveEventLoop) {
            if self.state.is_some() {
                return;
            }
            match State::new(event_loop) {
                Ok(state) => self.state = Some(state),
                Err(e) => {
                    self.failure = Some(e);
                    event_loop.exit();
                }
            }
        }

        fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
            let Some(state) = self.state.as_mut() else {
                return;
            };
            let result = match event {
                WindowEvent::CloseRequested => {
                    event_loop.exit();
                    Ok(())
                }
                WindowEvent::Resized(size) => state.resize(size.width, size.height),
                // Another display may have another headroom.
                WindowEvent::Moved(_) | WindowEvent::ScaleFactorChanged { .. } => {
                    state.follow_display()
                }
                WindowEvent::RedrawRequested => state.draw(),
                _ => Ok(()),
            };
            if let Err(e) = result {
                self.failure = Some(e);
                event_loop.exit();
            }
        }
    }

    impl State {
        fn new(event_loop: &ActiveEventLoop) -> Result<State, String> {
            let attributes = Window::default_attributes().with_title("afterglow: HDR window");
            let window = Arc::new(
                event_loop
                    .create_window(attributes)
                    .map_err(|e| e.to_string())?,
            );
            let instance = wgpu::Instance::default();
            let surface = instance
                .create_surface(window.clone())
                .map_err(|e| e.to_string())?;
            let adapter =
                pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
                    compatible_surface: Some(&surface),
                    ..Default::default()
                }))
                .map_err(|e| e.to_string())?;
            let (device, queue) = pollster::block_on(adapter.request_device(&Default::default()))
                .map_err(|e| e.to_string())?;
            let caps = surface.get_capabilities(&adapter);
            let info = surface.display_hdr_info(&adapter);
            // Apple's displays report a headroom over SDR white and no
            // absolute nits: scRGB (1 = SDR white there) says it directly.
            let relative = info.headroom.is_some();
            let (color_space, format) = PREFERENCE
                .iter()
                .filter(|(space, _)| !(relative && *space == S::Bt2100Pq))
                .flat_map(|&(space, formats)| formats.iter().map(move |&f| (space, f)))
                .find(|&(space, format)| {
                    space
                        .to_color_spaces()
                        .is_some_and(|s| caps.color_spaces(format).contains(s))
                })
                .ok_or("the surface offers none of the formats afterglow writes")?;
            let size = window.inner_size();
            let config = wgpu::SurfaceConfiguration {
                color_space,
                ..surface
                    .get_default_config(&adapter, size.width.max(1), size.height.max(1))
                    .ok_or("the surface cannot be configured with this adapter")?
            };
            let config = wgpu::SurfaceConfiguration { format, ..config };
            surface.configure(&device, &config);
            let mut options = Options::default();
            let mut output = Output::new(format).with_color_space(color_space);
            if is_hdr(color_space) {
                // The curve rises to what the display shows above SDR white.
                options.canvas.tone_mapping = ToneMapping::Extended;
                options.canvas.headroom = afterglow::display_headroom(&info);
                // PQ is absolute: SDR white where the system puts it, so
                // that the headroom (peak over that white) lands on the peak.
                if let Some(nits) = info.luminance.and_then(|l| l.sdr_white_nits) {
                    output.sdr_white_nits = nits;
                }
            }
            let post = PostChain::with_output(&device, &queue, output, &options)
                .map_err(|e| e.to_string())?;
            let scene = lights(&device, &queue);
            let state = State {
                window,
                surface,
                adapter,
                device,
                queue,
                config,
                post,
                options,
                scene,
            };
            state.retitle();
            Ok(state)
        }

        /// Says in the title what was chosen.
        fn retitle(&self) {
            self.window.set_title(&format!(
                "afterglow: {:?} in {:?}, headroom {:.1}",
                self.config.color_space, self.config.format, self.options.canvas.headroom
            ));
        }

        fn follow_display(&mut self) -> Result<(), String> {
            if !is_hdr(self.config.color_space) {
                return Ok(());
            }
            let info = self.surface.display_hdr_info(&self.adapter);
            let headroom = afterglow::display_headroom(&info);
            if headroom != self.options.canvas.headroom {
                self.options.canvas.headroom = headroom;
                self.post
                    .set_options(&self.options)
                    .map_err(|e| e.to_string())?;
                self.retitle();
                self.window.request_redraw();
            }
            Ok(())
        }

        fn resize(&mut self, width: u32, height: u32) -> Result<(), String> {
            if width == 0 || height == 0 {
                return Ok(());
            }
            self.config.width = width;
            self.config.height = height;
            self.surface.configure(&self.device, &self.config);
            self.window.request_redraw();
            Ok(())
        }

        fn draw(&mut self) -> Result<(), String> {
            let (frame, stale) = match self.surface.get_current_texture() {
                wgpu::CurrentSurfaceTexture::Success(frame) => (frame, false),
                wgpu::CurrentSurfaceTexture::Suboptimal(frame) => (frame, true),
                // Minimised or slow: the next redraw tries again.
                wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                    return Ok(())
                }
                // The surface changed under it (a resize, another display).
                wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                    self.surface.configure(&self.device, &self.config);
                    self.window.request_redraw();
                    return Ok(());
                }
                other => return Err(format!("no frame from the surface: {other:?}")),
            };
            let view = frame.texture.create_view(&Default::default());
            let mut encoder = self.device.create_command_encoder(&Default::default());
            self.post
                .render(&mut encoder, &self.scene, None, &view, self.config.format)
                .map_err(|e| e.to_string())?;
            self.queue.submit([encoder.finish()]);
            self.queue.present(frame);
            if stale {
                self.surface.configure(&self.device, &self.config);
            }
            Ok(())
        }
    }

    /// The scene: a dim ramp and a row of lights from 0.5 to 32 times SDR
    /// white (linear, premultiplied, opaque), 512×256.
    fn lights(device: &wgpu::Device, queue: &wgpu::Queue) -> wgpu::TextureView {
        const W: u32 = 512;
        const H: u32 = 256;
        let mut texels = Vec::with_capacity((W * H * 4) as usize);
        for y in 0..H {
            for x in 0..W {
                let mut value = 0.02 + 0.1 * x as f32 / W as f32;
                // Seven lights, each twice as bright as the one before.
                let light = (x * 7 / W) as i32;
                let centre = ((2 * light as u32 + 1) * W / 14, H / 2);
                let (dx, dy) = (x as f32 - centre.0 as f32, y as f32 - centre.1 as f32);
                if dx * dx + dy * dy < 400.0 {
                    value = 0.5 * 2f32.powi(light);
                }
                texels.extend([half(value), half(value * 0.9), half(value * 0.8), half(1.0)]);
            }
        }
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("lights"),
            size: wgpu::Extent3d {
                width: W,
                height: H,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: F::Rgba16Float,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let bytes: Vec<u8> = texels.iter().flat_map(|h| h.to_le_bytes()).collect();
        let layout = wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(W * 8),
            rows_per_image: None,
        };
        queue.write_texture(texture.as_image_copy(), &bytes, layout, texture.size());
        texture.create_view(&Default::default())
    }

    /// A positive, normal `f32` as an IEEE half.
    fn half(v: f32) -> u16 {
        let bits = v.to_bits();
        let exponent = ((bits >> 23) & 0xff) as i32 - 127 + 15;
        let mantissa = (bits >> 13) & 0x3ff;
        ((exponent.clamp(0, 30) as u32) << 10 | mantissa) as u16
    }
}
