//! Property tests (native): option parsing never panics, accepts exactly
//! what the schema allows and gives back every accepted number bit for
//! bit; the shaders' time is finite and precise for any finite page time;
//! the bloom plan and the texture rules hold for every size from 1×1 to
//! the largest texture a device may allow.

use crate::chain::{shader_time, TIME_PERIOD_SECONDS};
use crate::frame::bloom_coverage as coverage;
use crate::options::{schema, Kind, Options, OptionsValue, Value};
use crate::passes::bloom::{gaussian_plan, plan};
use crate::texture_rules::{check, max_mip_levels};
use proptest::prelude::*;

/// The largest `maxTextureDimension2D` a device reports in practice.
const LARGEST: u32 = 32768;

/// `{ group: { key: value } }` (or `{ key: value }`) for an option path.
fn at(path: &str, value: Value) -> Value {
    path.rsplit('.')
        .fold(value, |v, key| Value::Object(vec![(key.to_string(), v)]))
}

/// Any JS-shaped value: leaves of every kind (numbers of every magnitude
/// and sign, strings that look like numbers, the schema's own choices),
/// nested objects whose keys are often real option keys.
fn any_value() -> impl Strategy<Value = Value> {
    let keys: Vec<String> = schema()
        .iter()
        .flat_map(|s| s.path.split('.').map(String::from))
        .chain(["bloom", "canvas", "Bloom", "", "__proto__", "gain"].map(String::from))
        .collect();
    let choices: Vec<String> = schema()
        .iter()
        .filter_map(|s| match s.kind {
            Kind::Choice(names) => Some(names.iter().map(|n| n.to_string())),
            _ => None,
        })
        .flatten()
        .chain(["", "4", "NaN", "AGX"].map(String::from))
        .collect();
    let leaf = prop_oneof![
        Just(Value::Undefined),
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<f64>().prop_map(Value::Number),
        prop_oneof![
            Just(0.0),
            Just(-0.0),
            Just(0.1),
            Just(1.0),
            Just(4.0),
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(f64::NEG_INFINITY),
            Just(f64::MIN_POSITIVE),
            Just(f64::MAX),
            Just(1e-320),
        ]
        .prop_map(Value::Number),
        (0u32..20).prop_map(|n| Value::Number(n as f64)),
        prop::sample::select(choices).prop_map(Value::String),
        ".{0,8}".prop_map(Value::String),
        prop::sample::select(vec!["an array", "a symbol", "a bigint", "a function"])
            .prop_map(|s| Value::Other(s.to_string())),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop::collection::vec((prop::sample::select(keys.clone()), inner), 0..6)
            .prop_map(Value::Object)
    })
}

/// Whether a number is in a `Kind::Number` range. Above an excluded
/// minimum means a normal f32 step above it as the GPU sees it: 5e-324 and
/// 1e-45 are not above 0.
fn in_range(n: f64, min: f64, max: f64, above_min: bool) -> bool {
    let above = n > min && (n as f32) - (min as f32) >= f32::MIN_POSITIVE;
    n.is_finite() && (above || (!above_min && n >= min)) && n <= max
}

/// A value the schema allows for option `index`, chosen across its range.
fn valid_value(index: usize) -> BoxedStrategy<Value> {
    match schema()[index].kind {
        Kind::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
        Kind::Choice(names) => prop::sample::select(names)
            .prop_map(|n| Value::String(n.to_string()))
            .boxed(),
        Kind::Count { values, .. } => prop::sample::select(values)
            .prop_map(|n| Value::Number(n as f64))
            .boxed(),
        Kind::Number {
            min,
            max,
            above_min,
        } => prop_oneof![
            (0.0..=1.0f64).prop_map(move |f| min + f * (max - min)),
            Just(max),
            Just(if above_min {
                min + f64::EPSILON * max.max(1.0)
            } else {
                min
            }),
            (0.0..=1.0f64).prop_map(move |f| (min + f * (max - min).min(1.0)).min(max)),
        ]
        .prop_filter("in range", move |n| in_range(*n, min, max, above_min))
        .prop_map(Value::Number)
        .boxed(),
        Kind::Integer { min, max } => (min..=max).prop_map(|n| Value::Number(n as f64)).boxed(),
    }
}

/// Whether the option at `index` is allowed together with the defaults
/// (`extended` tone mapping needs an `rgba16float` canvas, `tonemapped`
/// resolve needs msaa 4, which are the defaults' `preferred` and 4, and
/// the percentiles must stay in order around the other's default).
fn allowed_with_defaults(index: usize, v: &Value) -> bool {
    let path = schema()[index].path;
    !(path == "canvas.toneMapping" && *v == Value::String("extended".into()))
        && crossed(path, v).is_none()
}

/// Whether `v` for `path` puts two options out of order with the other at
/// its default: the percentiles (lowPercentile 0.1, highPercentile 0.9),
/// refused with an error on `autoExposure.highPercentile`, or the focus
/// within the focal length (focusDistance 10, focalLength 0.05), refused
/// on `depthOfField.focusDistance`. Returns that field and the other
/// option, which its message names.
fn crossed(path: &str, v: &Value) -> Option<(&'static str, &'static str)> {
    const HIGH: (&str, &str) = ("autoExposure.highPercentile", "autoExposure.lowPercentile");
    const FOCUS: (&str, &str) = ("depthOfField.focusDistance", "depthOfField.focalLength");
    match (path, v) {
        ("autoExposure.lowPercentile", Value::Number(n)) if *n >= 0.9 => Some(HIGH),
        ("autoExposure.highPercentile", Value::Number(n)) if *n <= 0.1 => Some(HIGH),
        ("depthOfField.focusDistance", Value::Number(n)) if *n <= 0.05 => Some(FOCUS),
        ("depthOfField.focalLength", Value::Number(n)) if *n >= 10.0 => Some(FOCUS),
        _ => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any value tree: an `Ok` that validates and round-trips through
    /// `options()`, or an error naming a field; never a panic.
    #[test]
    fn parsing_never_panics_and_accepted_options_round_trip(v in any_value()) {
        match Options::from_value(&v) {
            Ok(o) => {
                prop_assert!(o.validate().is_ok());
                let back = Options::from_value(&o.to_value());
                prop_assert_eq!(back, Ok(o));
            }
            // The field is the key given (which may itself be '').
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
        // Merging onto other options behaves the same way.
        let mut base = Options::default();
        base.bloom.radius = 2.5;
        if let Ok(o) = base.merged(&v) {
            prop_assert_eq!(Options::from_value(&o.to_value()), Ok(o));
        }
    }

    /// Every valid value of every option is accepted and `options()` gives
    /// it back exactly (bit for bit for numbers, so `0.7` stays `0.7`).
    #[test]
    fn every_valid_value_round_trips_exactly(
        (index, v) in (0..schema().len()).prop_flat_map(|i| (Just(i), valid_value(i)))
    ) {
        prop_assume!(allowed_with_defaults(index, &v));
        let spec = &schema()[index];
        let o = Options::from_value(&at(spec.path, v.clone()));
        prop_assert!(o.is_ok(), "{} = {:?} refused: {:?}", spec.path, v, o);
        let got = spec.get(&o.unwrap()).to_value();
        match (&got, &v) {
            (Value::Number(a), Value::Number(b)) => {
                prop_assert_eq!(a.to_bits(), b.to_bits(), "{}: {} became {}", spec.path, b, a)
            }
            _ => prop_assert_eq!(&got, &v),
        }
    }

    /// Numbers outside an option's range, non-finite or fractional where a
    /// whole number is needed are refused with the option named, and
    /// change nothing.
    #[test]
    fn numbers_out_of_range_are_refused_naming_the_option(
        index in 0..schema().len(),
        n in prop_oneof![
            any::<f64>(),
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(f64::NEG_INFINITY),
            Just(-0.0),
            (-20.0..20.0f64),
        ],
    ) {
        let spec = &schema()[index];
        let allowed = match spec.kind {
            Kind::Number { min, max, above_min } => in_range(n, min, max, above_min),
            Kind::Integer { min, max } => {
                n.is_finite() && n.fract() == 0.0 && n >= min as f64 && n <= max as f64
            }
            Kind::Count { values, .. } => values.iter().any(|c| *c as f64 == n),
            Kind::Bool | Kind::Choice(_) => false,
        };
        let crossed = crossed(spec.path, &Value::Number(n)).filter(|_| allowed);
        let base = Options::default();
        match base.merged(&at(spec.path, Value::Number(n))) {
            Ok(o) => {
                prop_assert!(allowed && crossed.is_none(), "{} accepted {}", spec.path, n);
                prop_assert_eq!(spec.get(&o).to_value(), Value::Number(n));
            }
            Err(e) if crossed.is_some() => {
                let (field, other) = crossed.unwrap_or_default();
                prop_assert_eq!(e.field.as_str(), field);
                prop_assert!(e.message.contains(other), "{}", e);
            }
            Err(e) => {
                prop_assert!(!allowed, "{} refused {}: {}", spec.path, n, e);
                prop_assert_eq!(e.field.as_str(), spec.path);
            }
        }
    }

    /// Any finite time gives a finite shader time within one period, and
    /// one millisecond later is still a millisecond later (to within the
    /// f32 step at the period's end), however long the page has run.
    #[test]
    fn shader_time_is_finite_and_precise_for_any_finite_time(t in any::<f64>()) {
        let s = shader_time(t);
        prop_assert!(s.is_finite());
        prop_assert!((0.0..TIME_PERIOD_SECONDS as f32).contains(&s), "{t} -> {s}");
        if t.is_finite() && t.abs() < 1e12 {
            let mut expected = t.rem_euclid(TIME_PERIOD_SECONDS);
            if expected as f32 >= TIME_PERIOD_SECONDS as f32 {
                expected = 0.0; // a tiny negative time, rounded up to the period
            }
            // The f32 step just below the period (8192..16384 s): 2⁻¹⁰ s.
            let step = 1.0f32 / 1024.0;
            prop_assert!((s as f64 - expected).abs() <= step as f64, "{t}: {s} vs {expected}");
            let later = shader_time(t + 0.001) as f64;
            // Away from the wrap, a millisecond stays a millisecond.
            if expected + 0.002 < TIME_PERIOD_SECONDS {
                prop_assert!(((later - s as f64) - 0.001).abs() <= 2.0 * step as f64,
                    "{t}: {s} then {later}");
            }
        }
    }

    /// For every size and level cap: the bloom base covers the frame in
    /// whole boxes of `ratio` texels (a quarter of the frame or less, half
    /// or less for the Gaussian blur's target, at
    /// least 1×1), its chain has 1 to `levels` mips, the composite's
    /// coverage is within (0, 1], and the base texture with that many mips
    /// passes the texture rules.
    #[test]
    fn bloom_plan_holds_for_every_size(
        w in 1..=LARGEST,
        h in 1..=LARGEST,
        levels in 1u32..=12,
    ) {
        let g = gaussian_plan((w, h));
        prop_assert!((2..=16).contains(&g.ratio) && g.levels == 1, "{w}×{h}: {g:?}");
        prop_assert!(g.size.0 * g.ratio >= w && (g.size.0 - 1) * g.ratio < w, "{w}×{h}: {g:?}");
        prop_assert!(g.size.1 * g.ratio >= h && (g.size.1 - 1) * g.ratio < h, "{w}×{h}: {g:?}");
        let p = plan((w, h), levels);
        let (bw, bh) = p.size;
        prop_assert!(bw >= 1 && bh >= 1);
        prop_assert!((4..=16).contains(&p.ratio), "{w}×{h}: ratio {}", p.ratio);
        prop_assert!(bw * p.ratio >= w && (bw - 1) * p.ratio < w, "{w}×{h}: base {:?}", p.size);
        prop_assert!(bh * p.ratio >= h && (bh - 1) * p.ratio < h, "{w}×{h}: base {:?}", p.size);
        let c = coverage((w, h), p.extent());
        prop_assert!(c.iter().all(|&c| c > 0.0 && c <= 1.0), "{w}×{h}: coverage {c:?}");
        prop_assert!(p.levels >= 1 && p.levels <= levels, "{w}×{h}: {} levels", p.levels);
        let desc = texture("bloom mips", p.size, p.levels, 1);
        prop_assert!(check(&desc).is_ok(), "{w}×{h}: {:?}", check(&desc));
    }

    /// The mip rule: exactly 1 + ⌊log2(max(w, h))⌋ levels are allowed.
    #[test]
    fn texture_rules_allow_exactly_the_full_mip_chain(
        w in 1..=LARGEST,
        h in 1..=LARGEST,
        samples in prop::sample::select(vec![1u32, 4]),
    ) {
        let size = wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 };
        let max = max_mip_levels(size, wgpu::TextureDimension::D2);
        prop_assert_eq!(max, 32 - w.max(h).leading_zeros());
        let mips = if samples == 1 { max } else { 1 };
        prop_assert!(check(&texture("t", (w, h), mips, samples)).is_ok());
        prop_assert!(check(&texture("t", (w, h), max + 1, 1)).is_err());
        prop_assert!(check(&texture("t", (w, h), 2, 4)).is_err(), "multisampled with mips");
    }
}

fn texture(
    label: &'static str,
    size: (u32, u32),
    mips: u32,
    samples: u32,
) -> wgpu::TextureDescriptor<'static> {
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
    let format = wgpu::TextureFormat::Rgba16Float;
    crate::gpu::texture_2d(label, size, format, (samples, mips), usage)
}

/// Known examples: the documented minimum radius is accepted and
/// `options()` gives back what was set, not its f32 neighbour.
#[test]
fn documented_bounds_and_decimals_round_trip() {
    let o = Options::from_value(&at("bloom.radius", Value::Number(0.1))).unwrap();
    assert_eq!(o.bloom.radius, 0.1);
    let o = Options::from_value(&at("bloom.intensity", Value::Number(0.7))).unwrap();
    assert_eq!(
        o.to_value().get("bloom").get("intensity"),
        &Value::Number(0.7)
    );
    let o = Options::from_value(&at("exposure", Value::Number(0.30000000000000004))).unwrap();
    assert_eq!(o.exposure, 0.30000000000000004);
    assert_eq!(shader_time(1e39), shader_time(1e39 % TIME_PERIOD_SECONDS));
    assert!(shader_time(f64::MAX).is_finite());
    assert_eq!(shader_time(-1.0), (TIME_PERIOD_SECONDS - 1.0) as f32);
}
