//! A wgpu program with a 3D scene of its own — lit cubes on a floor, two of
//! them emissive — that uses afterglow only as its post chain, and writes
//! the frame as a PNG: `cargo run --example own_renderer -- out.png [width
//! height]`.
//!
//! The program owns everything up to the HDR image: the device, the vertex
//! buffers, a 4× MSAA pass with depth writing two `Rgba16Float` targets at
//! once (the lit scene, and the emissive light alone for selective bloom),
//! and its command encoder. [`afterglow::PostChain`] then records bloom,
//! tonemapping and sRGB encoding into the same encoder, reading those two
//! targets and writing the program's `Rgba8UnormSrgb` output. Brightly lit
//! faces stay crisp; only the emissive cubes glow.

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    native::main()
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use afterglow::wgpu;
    use wgpu::util::DeviceExt;

    const HDR: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
    const DEPTH: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
    const OUTPUT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
    const SAMPLES: u32 = 4;

    const SHADER: &str = r#"
struct Frame {
    view_proj: mat4x4f,
    sun_dir: vec4f,     // xyz: direction the sunlight travels; w: intensity
    lamp_pos: vec4f,    // a point light inside the emissive cube
    lamp_color: vec4f,
}
@group(0) @binding(0) var<uniform> frame: Frame;

struct VertexIn {
    @location(0) position: vec3f,
    @location(1) normal: vec3f,
    @location(2) center: vec3f,
    @location(3) size: vec3f,
    @location(4) spin: f32,
    @location(5) albedo: vec3f,
    @location(6) emissive: vec3f,
}

struct Varyings {
    @builtin(position) clip: vec4f,
    @location(0) world: vec3f,
    @location(1) normal: vec3f,
    @location(2) albedo: vec3f,
    @location(3) emissive: vec3f,
}

fn spin_y(v: vec3f, a: f32) -> vec3f {
    let c = cos(a);
    let s = sin(a);
    return vec3f(c * v.x + s * v.z, v.y, -s * v.x + c * v.z);
}

@vertex fn vs(v: VertexIn) -> Varyings {
    let world = v.center + spin_y(v.position * v.size, v.spin);
    var o: Varyings;
    o.clip = frame.view_proj * vec4f(world, 1.0);
    o.world = world;
    o.normal = spin_y(v.normal, v.spin);
    o.albedo = v.albedo;
    o.emissive = v.emissive;
    return o;
}

struct Targets {
    @location(0) scene: vec4f,     // everything, linear HDR
    @location(1) emissive: vec4f,  // only what should glow
}

@fragment fn fs(v: Varyings) -> Targets {
    let n = normalize(v.normal);
    let sun = max(dot(n, -frame.sun_dir.xyz), 0.0) * frame.sun_dir.w;
    let to_lamp = frame.lamp_pos.xyz - v.world;
    let d2 = dot(to_lamp, to_lamp);
    let lamp = max(dot(n, to_lamp * inverseSqrt(d2)), 0.0) / d2;
    let light = v.albedo * (vec3f(0.04) + sun + lamp * frame.lamp_color.rgb) + v.emissive;
    return Targets(vec4f(light, 1.0), vec4f(v.emissive, 1.0));
}
"#;

    /// One box: where, how big, turned how far about the vertical, its
    /// diffuse color and the light it emits.
    #[repr(C)]
    #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    struct Instance {
        center: [f32; 3],
        size: [f32; 3],
        spin: f32,
        albedo: [f32; 3],
        emissive: [f32; 3],
    }

    #[repr(C)]
    #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    struct Frame {
        view_proj: [[f32; 4]; 4],
        sun_dir: [f32; 4],
        lamp_pos: [f32; 4],
        lamp_color: [f32; 4],
    }

    fn instances() -> Vec<Instance> {
        let b = |center: [f32; 3], size: f32, spin: f32, albedo: [f32; 3], emissive: [f32; 3]| {
            Instance {
                center,
                size: [size; 3],
                spin,
                albedo,
                emissive,
            }
        };
        vec![
            // The floor: a flat box, lit by the sun and the lamp.
            Instance {
                center: [0.0, -0.05, 0.0],
                size: [12.0, 0.1, 12.0],
                spin: 0.0,
                albedo: [0.25, 0.25, 0.28],
                emissive: [0.0; 3],
            },
            // White cubes in full sun: brighter than the bloom threshold,
            // yet they do not glow, because only the emissive target blooms.
            b([-2.2, 0.6, 0.4], 1.2, 0.4, [0.9, 0.9, 0.9], [0.0; 3]),
            b([2.0, 0.5, -1.2], 1.0, -0.3, [0.8, 0.3, 0.2], [0.0; 3]),
            b([0.6, 0.35, 2.0], 0.7, 0.9, [0.2, 0.5, 0.9], [0.0; 3]),
            // The lamp: an emissive cube with a point light inside it.
            b([0.0, 0.45, 0.0], 0.5, 0.7, [0.0; 3], [6.0, 2.0, 0.4]),
            // A small cyan emitter on top of the white cube.
            b([-2.2, 1.4, 0.4], 0.3, 0.2, [0.0; 3], [0.3, 3.0, 5.0]),
        ]
    }

    /// The 36 vertices (position, normal) of a unit cube, counter-clockwise
    /// seen from outside.
    fn cube() -> Vec<[f32; 6]> {
        let faces = [
            ([1., 0., 0.], [0., 1., 0.], [0., 0., 1.]),
            ([-1., 0., 0.], [0., 0., 1.], [0., 1., 0.]),
            ([0., 1., 0.], [0., 0., 1.], [1., 0., 0.]),
            ([0., -1., 0.], [1., 0., 0.], [0., 0., 1.]),
            ([0., 0., 1.], [1., 0., 0.], [0., 1., 0.]),
            ([0., 0., -1.], [0., 1., 0.], [1., 0., 0.]),
        ];
        let corners = [
            (-1., -1.),
            (1., -1.),
            (1., 1.),
            (-1., -1.),
            (1., 1.),
            (-1., 1.),
        ];
        let mut out = Vec::new();
        for (n, u, v) in faces {
            for (a, b) in corners {
                let p = |i: usize| 0.5 * (n[i] + a * u[i] + b * v[i]);
                out.push([p(0), p(1), p(2), n[0], n[1], n[2]]);
            }
        }
        out
    }

    type Vec3 = [f32; 3];
    fn sub(a: Vec3, b: Vec3) -> Vec3 {
        [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
    }
    fn dot(a: Vec3, b: Vec3) -> f32 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }
    fn cross(a: Vec3, b: Vec3) -> Vec3 {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    }
    fn normalize(a: Vec3) -> Vec3 {
        let l = dot(a, a).sqrt();
        [a[0] / l, a[1] / l, a[2] / l]
    }

    /// Perspective × look-at, column-major, depth 0..1 (right-handed).
    fn view_proj(eye: Vec3, target: Vec3, fov_y: f32, aspect: f32) -> [[f32; 4]; 4] {
        let f = normalize(sub(target, eye));
        let s = normalize(cross(f, [0.0, 1.0, 0.0]));
        let u = cross(s, f);
        let view = [
            [s[0], u[0], -f[0], 0.0],
            [s[1], u[1], -f[1], 0.0],
            [s[2], u[2], -f[2], 0.0],
            [-dot(s, eye), -dot(u, eye), dot(f, eye), 1.0],
        ];
        let (near, far) = (0.1, 100.0);
        let t = 1.0 / (fov_y / 2.0).tan();
        let proj = [
            [t / aspect, 0.0, 0.0, 0.0],
            [0.0, t, 0.0, 0.0],
            [0.0, 0.0, far / (near - far), -1.0],
            [0.0, 0.0, near * far / (near - far), 0.0],
        ];
        let mut m = [[0.0; 4]; 4];
        for (c, col) in m.iter_mut().enumerate() {
            for (r, x) in col.iter_mut().enumerate() {
                *x = (0..4).map(|k| proj[k][r] * view[c][k]).sum();
            }
        }
        m
    }

    fn target(
        device: &wgpu::Device,
        label: &str,
        (w, h): (u32, u32),
        format: wgpu::TextureFormat,
        samples: u32,
        usage: wgpu::TextureUsages,
    ) -> wgpu::Texture {
        device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: samples,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage,
            view_formats: &[],
        })
    }

    /// Mesa's Vulkan device-selection layer asks the Wayland compositor
    /// which GPU is the default one; without a login session (no
    /// `XDG_RUNTIME_DIR`: a server, a container, CI) libwayland prints
    /// "error: XDG_RUNTIME_DIR is invalid or not set" for each instance,
    /// although nothing failed. There is no compositor to ask then, so the
    /// layer is left out, unless a device was chosen through it
    /// (`MESA_VK_DEVICE_SELECT`). wgpu picks the adapter either way.
    fn quiet_without_a_session() {
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
        if !set("XDG_RUNTIME_DIR") && !set("MESA_VK_DEVICE_SELECT") {
            // Before any thread exists.
            std::env::set_var("NODEVICE_SELECT", "1");
        }
    }

    pub fn main() -> Result<(), Box<dyn std::error::Error>> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let path = args.first().map_or("own_renderer.png", |s| s.as_str());
        let num = |i: usize, d: u32| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
        let size = (num(1, 960).max(1), num(2, 540).max(1));

        quiet_without_a_session();
        // The program's own device (any wgpu device will do).
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::VULKAN,
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let adapter = pollster::block_on(instance.request_adapter(&Default::default()))?;
        let (device, queue) =
            pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default()))?;

        // Its scene: geometry, a pipeline with two color targets and depth.
        let vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("cube vertices"),
            contents: bytemuck::cast_slice(&cube()),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let boxes = instances();
        let instance_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("cube instances"),
            contents: bytemuck::cast_slice(&boxes),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let frame = Frame {
            view_proj: view_proj(
                [5.0, 3.0, 7.0],
                [0.0, 0.4, 0.0],
                0.75,
                size.0 as f32 / size.1 as f32,
            ),
            sun_dir: {
                let d = normalize([-0.4, -1.0, -0.3]);
                [d[0], d[1], d[2], 1.6]
            },
            lamp_pos: [0.0, 0.45, 0.0, 1.0],
            lamp_color: [4.0, 1.5, 0.4, 1.0],
        };
        let uniforms = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("frame uniforms"),
            contents: bytemuck::bytes_of(&frame),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("cubes"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("cubes"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[
                    Some(wgpu::VertexBufferLayout {
                        array_stride: 24,
                        step_mode: wgpu::VertexStepMode::Vertex,
                        attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3],
                    }),
                    Some(wgpu::VertexBufferLayout {
                        array_stride: std::mem::size_of::<Instance>() as u64,
                        step_mode: wgpu::VertexStepMode::Instance,
                        attributes: &wgpu::vertex_attr_array![
                            2 => Float32x3, 3 => Float32x3, 4 => Float32,
                            5 => Float32x3, 6 => Float32x3
                        ],
                    }),
                ],
            },
            primitive: wgpu::PrimitiveState {
                cull_mode: Some(wgpu::Face::Back),
                ..Default::default()
            },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH,
                depth_write_enabled: Some(true),
                depth_compare: Some(wgpu::CompareFunction::Less),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: wgpu::MultisampleState {
                count: SAMPLES,
                ..Default::default()
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[Some(HDR.into()), Some(HDR.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("frame uniforms"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: uniforms.as_entire_binding(),
            }],
        });

        // Its targets: multisampled color and depth for the pass, resolved
        // into the two single-sampled HDR textures the post chain reads.
        use wgpu::TextureUsages as U;
        let attach = U::RENDER_ATTACHMENT;
        let view = |t: &wgpu::Texture| t.create_view(&Default::default());
        let ms_scene = view(&target(&device, "scene msaa", size, HDR, SAMPLES, attach));
        let ms_glow = view(&target(
            &device,
            "emissive msaa",
            size,
            HDR,
            SAMPLES,
            attach,
        ));
        let depth = view(&target(&device, "depth", size, DEPTH, SAMPLES, attach));
        let sampled = attach | U::TEXTURE_BINDING;
        let scene = view(&target(&device, "scene", size, HDR, 1, sampled));
        let emissive = view(&target(&device, "emissive", size, HDR, 1, sampled));
        let output = target(&device, "output", size, OUTPUT, 1, attach | U::COPY_SRC);

        // afterglow, on the program's device, writing its output format.
        let options = afterglow::Options::default();
        let mut post = afterglow::PostChain::new(&device, &queue, OUTPUT, &options)?;

        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let color = |view, resolve| {
                Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: Some(resolve),
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        // Only the resolved images are read later.
                        store: wgpu::StoreOp::Discard,
                    },
                })
            };
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("cubes"),
                color_attachments: &[color(&ms_scene, &scene), color(&ms_glow, &emissive)],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &depth,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        store: wgpu::StoreOp::Discard,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.set_vertex_buffer(0, vertices.slice(..));
            pass.set_vertex_buffer(1, instance_buffer.slice(..));
            pass.draw(0..36, 0..boxes.len() as u32);
        }
        // The post chain, recorded into the same encoder.
        post.render(
            &mut encoder,
            &scene,
            Some(&emissive),
            &view(&output),
            OUTPUT,
        )?;

        // Read the output back and write it as a PNG.
        let row = (size.0 * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
            * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: row as u64 * size.1 as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        encoder.copy_texture_to_buffer(
            output.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: None,
                },
            },
            output.size(),
        );
        queue.submit([encoder.finish()]);
        let slice = readback.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        device.poll(wgpu::PollType::wait_indefinitely())?;
        rx.recv()??;
        let mapped = slice.get_mapped_range()?;
        let pixels: Vec<u8> = mapped
            .chunks(row as usize)
            .flat_map(|r| &r[..size.0 as usize * 4])
            .copied()
            .collect();
        let file = std::fs::File::create(path)?;
        let mut png = png::Encoder::new(std::io::BufWriter::new(file), size.0, size.1);
        png.set_color(png::ColorType::Rgba);
        png.set_depth(png::BitDepth::Eight);
        png.write_header()?.write_image_data(&pixels)?;
        println!(
            "wrote {path} ({}×{}, adapter {})",
            size.0,
            size.1,
            adapter.get_info().name
        );
        Ok(())
    }
}
