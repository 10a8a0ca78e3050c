//! Auto exposure on lavapipe: how it settles after a step of the whole
//! scene, how dark and bright scenes come out, and that a flickering small
//! light does not make it pump. The exposure in use is read back from the
//! GPU (`Chain::report`), a frame or a few late; frames are 1/60 s apart.

use crate::headless::{vulkan_gpu, Headless};
use crate::options::{AlphaMode, CanvasFormat, Options, ToneMapping};
use crate::output::OutputSpec;
use crate::Content;
use wgpu::TextureFormat as F;

#[allow(unused_imports)]
use super::common::*;

const FPS: f64 = 60.0;

/// Linear float output, no curve, auto exposure on with `speeds`
/// (brighten, darken).
fn chain(speeds: (f64, f64)) -> Headless {
    chain_with(options(speeds))
}

fn options(speeds: (f64, f64)) -> Options {
    let mut o = crate::options::PREDICTABLE;
    o.canvas.format = CanvasFormat::Rgba16Float;
    o.canvas.tone_mapping = ToneMapping::Extended;
    o.auto_exposure.enabled = true;
    o.auto_exposure.speed_brighten = speeds.0;
    o.auto_exposure.speed_darken = speeds.1;
    o.auto_exposure.min_ev = -16.0;
    o.auto_exposure.max_ev = 16.0;
    o
}

fn chain_with(o: Options) -> Headless {
    chain_sized(o, (64, 64))
}

fn chain_sized(o: Options, size: (u32, u32)) -> Headless {
    let gpu = pollster::block_on(vulkan_gpu()).expect("lavapipe");
    let output = OutputSpec::new(
        F::Rgba16Float,
        AlphaMode::Opaque,
        ToneMapping::Extended,
        Default::default(),
    )
    .unwrap();
    Headless::new(gpu, output, o, size).unwrap()
}

/// Renders frame `n` and returns the exposure in use as last read back.
fn step(h: &Headless, n: u32) -> Option<f64> {
    assert!(h.render(n as f64 / FPS));
    let _ = h.gpu.device.poll(wgpu::PollType::wait_indefinitely());
    assert_eq!(h.gpu.error_count(), 0, "{:?}", h.gpu.last_error());
    h.chain.report().exposure_ev
}

fn grey(v: f32) -> Content {
    Content::Solid([v, v, v, 1.0])
}

/// EV of every frame from `from` for `frames` frames.
fn run(h: &Headless, from: u32, frames: u32) -> Vec<f64> {
    (from..from + frames).filter_map(|n| step(h, n)).collect()
}

/// After a +6 EV and a −6 EV step of the whole scene the exposure reaches
/// within 0.1 EV of where it settles within 1.1 × 6 / speed + 0.5 s, and
/// never goes more than 0.05 EV past it.
#[test]
fn a_six_stop_step_settles_in_time_without_overshooting() {
    let speeds = (3.0, 1.5);
    let mut h = chain(speeds);
    h.set_content(grey(0.18)).unwrap();
    let start = run(&h, 0, 10);
    let first = *start.last().expect("an exposure read back");
    assert!(first.abs() < 0.05, "mid grey meters to 0 EV: {first}");
    let mut n = 10;
    // Brighter by 6 EV: the exposure darkens to -6; then back (brightens).
    for (radiance, target, speed) in [(0.18 * 64.0, -6.0, speeds.1), (0.18, 0.0, speeds.0)] {
        h.set_content(grey(radiance)).unwrap();
        let limit = 1.1 * 6.0 / speed + 0.5;
        let frames = ((limit + 1.5) * FPS) as u32;
        let evs: Vec<f64> = (n..n + frames).filter_map(|i| step(&h, i)).collect();
        n += frames;
        let settled = *evs.last().unwrap();
        assert!(
            (settled - target).abs() < 0.05,
            "settles at {settled}, not {target}"
        );
        // The readback lags: allow its frames on top of the limit.
        let within = evs.iter().position(|e| (e - settled).abs() <= 0.1).unwrap();
        let seconds = within as f64 / FPS;
        assert!(
            seconds <= limit + 0.1,
            "{radiance}: within 0.1 EV after {seconds} s (limit {limit})"
        );
        let past = evs
            .iter()
            .map(|e| {
                if target < evs[0] {
                    settled - e
                } else {
                    e - settled
                }
            })
            .fold(f64::MIN, f64::max);
        assert!(past <= 0.05, "{radiance}: {past} EV past the settled value");
        eprintln!("step to {radiance}: within 0.1 EV after {seconds:.2} s (limit {limit:.2}), overshoot {past:.3}");
    }
}

/// A dark scene (radiance 0.01) and a bright one (100) come out at the
/// same level, within 10 %, once settled.
#[test]
fn dark_and_bright_scenes_settle_to_the_same_level() {
    let mut levels = vec![];
    for radiance in [0.01f32, 100.0] {
        let mut h = chain((3.0, 3.0));
        h.set_content(grey(radiance)).unwrap();
        run(&h, 0, 30);
        let img = pollster::block_on(h.render_and_read(30.0 / FPS)).unwrap();
        let p = img.rgba_f32(32, 32);
        levels.push(srgb_decode(p[1]) as f64);
    }
    let ratio = levels[0] / levels[1];
    assert!((ratio - 1.0).abs() < 0.1, "levels {levels:?}");
    assert!((levels[0] - 0.18).abs() < 0.02, "mid grey: {levels:?}");
}

/// A static scene with one small light switching on and off every frame:
/// the exposure moves by at most 0.01 EV (standard deviation) over 600
/// frames.
#[test]
fn a_flickering_small_light_does_not_pump() {
    let mut h = chain((3.0, 1.0));
    let scene = |on: bool| {
        pixels(64, 64, move |x, y| {
            let light = on && (30..32).contains(&x) && (30..32).contains(&y);
            let v = if light {
                1000.0
            } else {
                0.05 + 0.002 * x as f32
            };
            [v, v, v, 1.0]
        })
    };
    h.set_content(scene(false)).unwrap();
    run(&h, 0, 60);
    let mut evs = vec![];
    for n in 60..660 {
        h.set_content(scene(n % 2 == 0)).unwrap();
        if let Some(ev) = step(&h, n) {
            evs.push(ev);
        }
    }
    let mean = evs.iter().sum::<f64>() / evs.len() as f64;
    let sd = (evs.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / evs.len() as f64).sqrt();
    eprintln!("flicker: mean {mean:.3} EV, standard deviation {sd:.5} EV");
    assert!(sd <= 0.01, "standard deviation {sd} EV");
}

/// `lowPercentile` and `highPercentile` are positions in the histogram,
/// counted from the darkest pixel: the average is taken between them. A
/// frame a quarter 4 EV below mid grey, half at mid grey and a quarter 4 EV
/// above meters to +4 EV between 0 and 0.25, to 0 between 0.25 and 0.75
/// and at the defaults (0.1 and 0.9, symmetric), to -4 between 0.75 and 1,
/// and to -1.5 between 0.5 and 0.9 (0.25 of the weight at 0 EV, 0.15 at
/// -4).
#[test]
fn the_percentiles_are_positions_in_the_histogram() {
    let scene = pixels(64, 64, |x, _| {
        let v = match x {
            0..16 => 0.18 / 16.0,
            16..48 => 0.18,
            _ => 0.18 * 16.0,
        };
        [v, v, v, 1.0]
    });
    for (low, high, expected) in [
        (0.0, 0.25, 4.0),
        (0.25, 0.75, 0.0),
        (0.1, 0.9, 0.0),
        (0.75, 1.0, -4.0),
        (0.5, 0.9, -1.5),
    ] {
        let mut o = options((100.0, 100.0));
        o.auto_exposure.low_percentile = low;
        o.auto_exposure.high_percentile = high;
        let mut h = chain_with(o);
        h.set_content(scene.clone()).unwrap();
        let ev = *run(&h, 0, 30).last().expect("an exposure read back");
        eprintln!("between {low} and {high}: {ev:.3} EV");
        assert!(
            (ev - expected).abs() < 0.1,
            "between {low} and {high}: {ev} EV, not {expected}"
        );
    }
}

/// `reset_history` jumps to the target on the next frame; `exposure`
/// multiplies on top; off, nothing meters and the manual exposure rules.
#[test]
fn reset_jumps_and_the_manual_exposure_multiplies_on_top() {
    let mut o = options((0.5, 0.5));
    let mut h = chain_with(o);
    h.set_content(grey(0.18)).unwrap();
    run(&h, 0, 10);
    h.set_content(grey(0.18 * 16.0)).unwrap();
    let slow = run(&h, 10, 10);
    assert!(
        slow.last().unwrap() > &-1.0,
        "still adapting slowly: {slow:?}"
    );
    h.chain.reset_history();
    let after = run(&h, 20, 6);
    assert!(
        (after.last().unwrap() + 4.0).abs() < 0.05,
        "jumped to -4: {after:?}"
    );

    o.exposure = 2.0;
    h.set_settings(o).unwrap();
    let doubled = run(&h, 26, 6);
    assert!(
        (doubled.last().unwrap() + 3.0).abs() < 0.05,
        "-4 EV and x2: {doubled:?}"
    );

    o.auto_exposure.enabled = false;
    h.set_settings(o).unwrap();
    let img = pollster::block_on(h.render_and_read(40.0 / FPS)).unwrap();
    let level = srgb_decode(img.rgba_f32(32, 32)[1]);
    assert!(
        (level - 0.18 * 16.0 * 2.0).abs() < 0.05,
        "manual exposure only: {level}"
    );
    // Off, no exposure is reported (stats().exposureEv is null); on again,
    // it is reported from where metering left it.
    assert_eq!(step(&h, 41), None, "reported while off");
    o.auto_exposure.enabled = true;
    h.set_settings(o).unwrap();
    let again = run(&h, 42, 4);
    assert!(
        (again.last().unwrap() + 3.0).abs() < 0.05,
        "on again: {again:?}"
    );
}

/// `debug: 'exposure'` draws the histogram over the lower part of the
/// frame: a white bar at the bin of the scene's one luminance (the
/// fullest, so as high as the strip), the metered average as an orange
/// line, the picture darkened beside them, and the picture above.
#[test]
fn the_exposure_view_draws_the_metered_histogram() {
    let mut o = options((3.0, 3.0));
    o.debug = crate::options::DebugView::Exposure;
    let mut h = chain_sized(o, (256, 64));
    h.set_content(grey(0.18)).unwrap();
    run(&h, 0, 4);
    let img = pollster::block_on(h.render_and_read(4.0 / FPS)).unwrap();
    let pixel = |x: u32, y: u32| {
        let p = img.rgba_f32(x, y);
        [srgb_decode(p[0]), srgb_decode(p[1]), srgb_decode(p[2])]
    };
    // log2(0.18) = -2.47 falls in bin 27 of 64 (half an EV each from -16);
    // the strip spans 3 % to 97 % of the width, 3.76 px a bin here.
    let x_of = |position: f32| ((0.03 + 0.94 * position / 64.0) * 256.0) as u32;
    let average = pixel(x_of(27.05), 60);
    assert!(
        average[0] > 0.95 && (average[1] - 0.45).abs() < 0.02,
        "the average line: {average:?}"
    );
    let bar = pixel(x_of(27.6), 60);
    assert!(
        bar.iter().all(|c| (c - 0.9).abs() < 0.01),
        "the kept bin's bar: {bar:?}"
    );
    let beside = pixel(x_of(40.5), 50);
    assert!(
        (beside[1] - 0.18 * 0.3).abs() < 0.01,
        "the picture darkened: {beside:?}"
    );
    let above = pixel(128, 10);
    assert!(
        (above[1] - 0.18).abs() < 0.01,
        "the picture above the strip: {above:?}"
    );
}

/// `debug: 'bloom'` shows the bloom alone: black for a scene that does not
/// bloom, the halo and not the light for one that does.
#[test]
fn the_bloom_view_shows_the_bloom_alone() {
    let mut o = options((3.0, 3.0));
    o.auto_exposure.enabled = false;
    o.bloom.enabled = true;
    o.bloom.intensity = 1.0;
    o.debug = crate::options::DebugView::Bloom;
    let mut h = chain_with(o);
    let frame_of = |h: &mut Headless, light: f32| {
        h.set_content(pixels(64, 64, move |x, y| {
            let v = if (x, y) == (32, 32) { light } else { 0.1 };
            [v, v, v, 1.0]
        }))
        .unwrap();
        pollster::block_on(h.render_and_read(0.0)).unwrap()
    };
    let dark = frame_of(&mut h, 0.1);
    for (x, y) in [(2, 2), (32, 32), (60, 10)] {
        assert_eq!(dark.rgba_f32(x, y)[0], 0.0, "nothing blooms at ({x}, {y})");
    }
    let lit = frame_of(&mut h, 200.0);
    let level = |x: u32, y: u32| srgb_decode(lit.rgba_f32(x, y)[0]);
    assert!(level(38, 32) > 1e-3, "the halo: {}", level(38, 32));
    assert!(
        level(32, 32) < 100.0,
        "the light itself is not there: {}",
        level(32, 32)
    );
}
