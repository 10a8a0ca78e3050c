//! Build helper: `cargo xtask <command>`.
//!
//! - `setup`  installs what is missing (wasm target, wasm-pack,
//!   wasm-bindgen-cli at the lockfile's version, Chromium + ChromeDriver,
//!   software Vulkan, and package.json's npm tools: binaryen's wasm-opt,
//!   playwright-core and pngjs).
//! - `build`  builds the web package as `wasm-pack.toml` says.
//! - `serve`  checks the port is free, set-up, build, then serves `www/` on
//!   127.0.0.1:8000 (`--port N` for another port).
//! - `test`   set-up, then every test: native (lavapipe), browser
//!   (wasm-pack test in headless Chromium) and end-to-end (the served demo).
//! - `pack`   builds, then writes the npm package (`afterglow-hdr`) around
//!   `www/pkg` and its tarball into `target/npm/` (see `pack.rs`).
//! - `size`   builds and prints the package's size (wasm and JS glue), raw
//!   and gzipped.
//! - `bench`  set-up, build, then the side-by-side benchmark in headless
//!   Chromium (`bench/run.mjs`): afterglow against three.js,
//!   postprocessing and plain-WebGPU floors on the same content, printed
//!   as markdown tables. `bench --dot` runs the small-light comparison
//!   instead (`bench/dot.mjs`): how steadily and linearly a moving
//!   sub-pixel dot blooms in each, and how far its halo's centre is from it.
//!   `bench --defaults` compares the glow of each library at its own
//!   defaults around the same lights (`bench/defaults.mjs`).
//!   `bench --antialias` compares afterglow's FXAA and SMAA with
//!   postprocessing's against a supersampled reference, and their cost
//!   (`bench/antialias.mjs`).
//!   `--before REV` adds the package built at commit REV as a column of
//!   its own; reports go to `bench/results/` (see `bench/record.mjs`).
//!   `bench --gpu-browser` packs the side-by-side benchmark to run in
//!   Chromium on the GPU of another machine and renders what it brings
//!   back (`gpu_browser.rs`).
//!   `bench --native` measures GPU time per pass natively instead
//!   (the crate's ignored test `tests::bench`), at this commit or, with
//!   `--before REV`, before and after, and writes the report the same way
//!   (`native_bench.rs`).
//! - `pictures` set-up, build, then `docs/pictures.mjs` against the served
//!   demo: the README's and guides' pictures of it, at 1280×800 and 390×844.
//! - `soak`   set-up, build, then `bench/soak.mjs` in headless Chromium:
//!   20,000 frames, two storms of 1,000 resizes around a 5 s idle wait,
//!   1,000 option changes, 100 device losses and 80 create/destroy
//!   cycles, with textures, `gpuBytes` and memory printed before and after
//!   each, then the same resize storms on plain WebGPU as a control
//!   (`--quick`: a twentieth of each; `--no-control`: without it).
//!
//! The modules keep to the layers that `XTASK_LAYERS` in
//! `tests/structure.rs` declares: none imports a module of a layer above
//! its own, nor anything from this file.

mod before;
mod driver;
mod exec;
mod gpu_browser;
mod locked_install;
mod native_bench;
mod pack;
mod serve;
mod setup;
mod shrink;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use exec::{run, Result, Timings};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = project_root();
    put_cargo_bin_on_path();
    let result = match args.first().map(String::as_str) {
        Some("setup") => setup::ensure(&root, setup::Need::Test),
        Some("build") => setup::ensure(&root, setup::Need::Build).and_then(|_| build(&root)),
        Some("serve") => serve_command(&root, &args[1..]),
        Some("test") => test(&root, &args[1..]),
        Some("pack") => setup::ensure(&root, setup::Need::Build)
            .and_then(|_| build(&root))
            .and_then(|_| pack_web(&root))
            .map(drop),
        Some("size") if args.get(1).map(String::as_str) == Some("--floor") => {
            setup::ensure(&root, setup::Need::Build).and_then(|_| size_floor(&root))
        }
        Some("size") => setup::ensure(&root, setup::Need::Build)
            .and_then(|_| build(&root))
            .and_then(|_| size(&root)),
        Some("bench") => bench(&root, &args[1..]),
        Some("soak") => soak(&root, &args[1..]),
        Some("pictures") => pictures(&root),
        _ => {
            eprintln!(
                "usage: cargo xtask <setup | build | pack | serve [--port N] | test [native|browser|types|e2e] [--chromium | --firefox] \
                 | size | bench [--quick] [--frames N] [--rounds N] [--cpu-rounds N] [--before REV] [--dirty] \
                 | bench --dot [--frames N] [--before REV] [--dirty] \
                 | bench --defaults [--intensities X,Y] [--dirty] \
                 | bench --antialias [--rounds N] [--frames N] [--dirty] \
                 | bench --native [--before REV] [--frames N] [--rounds N] [--dirty] [--build-only | --report DIR] \
                 | bench --gpu-browser (--build-only [--rounds N] [--frames N] [--cpu-rounds N] [--cpu-calls N] [--dirty] | --report DIR) \
                 | soak [--quick] [--no-control] | pictures>"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Tools installed by `cargo install` land in $CARGO_HOME/bin; make sure
/// child processes find them even where that is not on PATH yet.
fn put_cargo_bin_on_path() {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    if let Some(bin) = cargo_home.map(|h| h.join("bin")) {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut parts: Vec<PathBuf> = std::env::split_paths(&path).collect();
        if !parts.contains(&bin) {
            parts.insert(0, bin);
            if let Ok(joined) = std::env::join_paths(parts) {
                // Single-threaded at this point.
                unsafe { std::env::set_var("PATH", joined) };
            }
        }
    }
}

fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The web build settings from wasm-pack.toml.
struct WebBuild {
    target: String,
    out_dir: String,
    profile: String,
    wasm_opt: bool,
    wasm_opt_flags: Vec<String>,
    minify_js: bool,
}

fn read_wasm_pack_toml(root: &Path) -> Result<WebBuild> {
    let path = root.join("wasm-pack.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc: toml::Table = text
        .parse()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let s = |table: &str, key: &str, default: &str| -> String {
        doc.get(table)
            .and_then(|t| t.get(key))
            .and_then(|v| v.as_str())
            .unwrap_or(default)
            .to_string()
    };
    let opt = doc.get("wasm-opt");
    Ok(WebBuild {
        target: s("build", "target", "web"),
        out_dir: s("build", "out-dir", "www/pkg"),
        profile: s("build", "profile", "release"),
        wasm_opt: opt
            .and_then(|t| t.get("enabled"))
            .and_then(|v| v.as_bool())
            .unwrap_or(true),
        wasm_opt_flags: opt
            .and_then(|t| t.get("flags"))
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default(),
        minify_js: doc
            .get("js")
            .and_then(|t| t.get("minify"))
            .and_then(|v| v.as_bool())
            .unwrap_or(true),
    })
}

/// What the web package's files are called (`afterglow.js`,
/// `afterglow_bg.wasm`, `afterglow.d.ts`): the library's name, which the
/// package's (`afterglow-hdr`) leaves as it was.
const OUT_NAME: &str = "afterglow";

/// wasm-pack build, then wasm-opt with the flags from wasm-pack.toml; for
/// release builds, short import/export names (see `shrink.rs`) and the
/// glue minified by esbuild.
fn build(root: &Path) -> Result<()> {
    let cfg = read_wasm_pack_toml(root)?;
    let profile_flag = match cfg.profile.as_str() {
        "release" => "--release",
        "dev" => "--dev",
        "profiling" => "--profiling",
        other => return Err(format!("wasm-pack.toml: unknown profile '{other}'")),
    };
    run(Command::new("wasm-pack")
        .current_dir(root)
        .args(["build", profile_flag, "--no-opt", "--no-pack"])
        .args(["--target", &cfg.target, "--out-name", OUT_NAME, "--out-dir"])
        .arg(root.join(&cfg.out_dir)))?;
    optimise(root, &cfg, &root.join(&cfg.out_dir), OUT_NAME)
}

/// The steps after wasm-bindgen for the package `name` in `dir`: wasm-opt
/// with the flags from wasm-pack.toml, then, outside dev builds, short
/// import/export names and the glue minified by esbuild.
fn optimise(root: &Path, cfg: &WebBuild, dir: &Path, name: &str) -> Result<()> {
    if cfg.profile == "dev" {
        return Ok(());
    }
    if cfg.wasm_opt {
        let wasm = dir.join(format!("{name}_bg.wasm"));
        run(Command::new(setup::wasm_opt(root))
            .args(&cfg.wasm_opt_flags)
            .arg(&wasm)
            .arg("-o")
            .arg(&wasm))?;
    }
    shrink::shrink(dir, name)?;
    if cfg.minify_js {
        let js = dir.join(format!("{name}.js"));
        run(Command::new(setup::esbuild(root))
            .arg(&js)
            .args([
                "--minify",
                "--format=esm",
                "--allow-overwrite",
                "--log-level=warning",
            ])
            .arg(format!("--outfile={}", js.display())))?;
    }
    Ok(())
}

/// The npm package around the built `www/pkg`; returns the tarball.
fn pack_web(root: &Path) -> Result<PathBuf> {
    let cfg = read_wasm_pack_toml(root)?;
    pack::pack(root, &root.join(&cfg.out_dir))
}

fn size(root: &Path) -> Result<()> {
    let cfg = read_wasm_pack_toml(root)?;
    let out = root.join(&cfg.out_dir);
    print_sizes(
        root,
        &out.join(format!("{OUT_NAME}_bg.wasm")),
        &out.join(format!("{OUT_NAME}.js")),
    )
}

/// `cargo xtask size --floor`: the smallest wgpu program that draws one
/// pass into a canvas (`bench/size-floor`), built through the same steps
/// as the package (release profile, wasm-bindgen, wasm-opt with the same
/// flags, short import names, minified glue): what wgpu's WebGPU backend
/// and wasm-bindgen cost before any of afterglow.
fn size_floor(root: &Path) -> Result<()> {
    let cfg = read_wasm_pack_toml(root)?;
    let dir = root.join("bench/size-floor");
    run(Command::new("cargo").current_dir(&dir).args([
        "build",
        "--release",
        "--target",
        "wasm32-unknown-unknown",
    ]))?;
    let out = dir.join("target/pkg");
    run(Command::new("wasm-bindgen")
        .arg(dir.join("target/wasm32-unknown-unknown/release/size_floor.wasm"))
        .arg("--out-dir")
        .arg(&out)
        .args(["--target", &cfg.target]))?;
    optimise(root, &cfg, &out, "size_floor")?;
    print_sizes(
        root,
        &out.join("size_floor_bg.wasm"),
        &out.join("size_floor.js"),
    )
}

fn print_sizes(root: &Path, wasm: &Path, js: &Path) -> Result<()> {
    let (mut total_raw, mut total_gz) = (0, 0);
    for file in [wasm, js] {
        let raw = std::fs::metadata(file)
            .map_err(|e| format!("{}: {e}", file.display()))?
            .len();
        let out = Command::new("gzip")
            .args(["-9", "-c"])
            .arg(file)
            .output()
            .map_err(|e| format!("gzip: {e}"))?;
        println!(
            "{}: {raw} bytes, {} bytes gzipped (gzip -9)",
            file.strip_prefix(root).unwrap_or(file).display(),
            out.stdout.len()
        );
        total_raw += raw;
        total_gz += out.stdout.len();
    }
    println!("total: {total_raw} bytes, {total_gz} bytes gzipped (gzip -9)");
    Ok(())
}

fn serve_command(root: &Path, args: &[String]) -> Result<()> {
    let port = match args {
        [] => 8000,
        [flag, value] if flag == "--port" => value
            .parse()
            .map_err(|_| format!("--port expects a number, got '{value}'"))?,
        _ => return Err("usage: cargo xtask serve [--port N]".into()),
    };
    serve::check_port(port)?;
    setup::ensure(root, setup::Need::Build)?;
    build(root)?;
    pack_web(root)?;
    let server = serve::Server::start(&root.join("www"), port, www_mounts(root))?;
    println!(
        "serving {} at http://{}/ (Ctrl-C to stop)",
        root.join("www").display(),
        server.addr()
    );
    server.join();
    Ok(())
}

/// What `www/` pages load from outside `www/`: three.js's build (dev
/// dependencies in `package.json`: the newest and the lowest release that
/// `afterglow-hdr/three` supports) for the three.js integration page.
fn www_mounts(root: &Path) -> Vec<serve::Mount> {
    vec![
        ("/vendor/three/", root.join("node_modules/three/build")),
        (
            "/vendor/three-lowest/",
            root.join("node_modules/three-lowest/build"),
        ),
    ]
}

fn test(root: &Path, args: &[String]) -> Result<()> {
    let mut timings = Timings::default();
    let result = test_stages(root, args, &mut timings);
    timings.print();
    result
}

/// The arguments after `wasm-pack test --headless --<engine>` that run
/// the crate's ignored browser test, the one that traps its instance,
/// alone (the runner's `--ignored` lists it but still skips it).
const ALONE: &[&str] = &[
    "--",
    "--lib",
    "--",
    "--include-ignored",
    "tests::panic_browser",
];

/// The browser suites (the crate's `tests::browser`, `byo_browser` and,
/// alone in a wasm instance of its own since it traps it,
/// `panic_browser`, which the first run leaves out as ignored) in headless
/// Chromium, then in Firefox ESR; `--chromium` or `--firefox` runs one
/// engine.
fn browser_suites(root: &Path, args: &[String], timings: &mut Timings) -> Result<()> {
    let runtime_dir = setup::runtime_dir();
    let engines = engines(args);
    if engines.contains(&Engine::Chromium) {
        timings.time("browser (Chromium): wasm-pack test", || {
            let driver = driver::Driver::start(
                setup::chromedriver(),
                &std::env::temp_dir().join("afterglow-chromedriver.log"),
            )?;
            for extra in [&[][..], ALONE] {
                run(Command::new("wasm-pack")
                    .current_dir(root)
                    .env("CHROMEDRIVER", setup::chromedriver())
                    .env("CHROMEDRIVER_REMOTE", driver.url())
                    .env("WASM_BINDGEN_TEST_TIMEOUT", BROWSER_RUN_TIMEOUT)
                    .args(["test", "--headless", "--chrome"])
                    .args(extra))?;
            }
            Ok(())
        })?;
    }
    if engines.contains(&Engine::Firefox) {
        setup::ensure_firefox(timings)?;
        timings.time("browser (Firefox): wasm-pack test", || {
            for extra in [&[][..], ALONE] {
                run(Command::new("wasm-pack")
                    .current_dir(root)
                    .env("GECKODRIVER", setup::geckodriver())
                    .env("XDG_RUNTIME_DIR", &runtime_dir)
                    .env("WASM_BINDGEN_TEST_TIMEOUT", BROWSER_RUN_TIMEOUT)
                    .args(["test", "--headless", "--firefox"])
                    .args(extra))?;
            }
            Ok(())
        })?;
    }
    Ok(())
}

fn test_stages(root: &Path, args: &[String], timings: &mut Timings) -> Result<()> {
    // Stage names choose what runs (all of them when none is named);
    // `--` options change how.
    let all = args.iter().all(|a| a.starts_with("--"));
    let want = |name: &str| all || args.iter().any(|a| a == name);
    setup::ensure_timed(root, setup::Need::Test, timings)?;
    let runtime_dir = setup::runtime_dir();
    if want("native") {
        timings.time("native: cargo test (build and run)", || {
            run(Command::new("cargo")
                .current_dir(root)
                .env("XDG_RUNTIME_DIR", &runtime_dir)
                .args(["test", "--workspace"]))
        })?;
        // Dead code and unused imports, where rustc can see them: the wasm
        // build compiles everything the package ships (see src/lib.rs).
        timings.time("native: wasm build, warnings denied", || {
            run(Command::new("cargo").current_dir(root).args([
                "rustc",
                "--lib",
                "--target",
                "wasm32-unknown-unknown",
                "--profile",
                "check",
                "--",
                "-D",
                "warnings",
            ]))
        })?;
    }
    if want("browser") {
        browser_suites(root, args, timings)?;
    }
    // The type test and the end-to-end tests install the same packed tarball.
    let tarball = if want("types") || want("e2e") {
        Some(timings.time("package: build and pack", || {
            build(root)?;
            pack_web(root)
        })?)
    } else {
        None
    };
    // The tarball as a registry would take it: publint's checks of
    // package.json's fields, exports and files against what is packed;
    // its warnings fail the test as errors do.
    if let Some(tarball) = &tarball {
        timings.time("package: publint", || {
            run(Command::new("node")
                .current_dir(root)
                .arg("node_modules/publint/src/cli.js")
                .args(["run", "--strict"])
                .arg(tarball))
        })?;
    }
    if let (true, Some(tarball)) = (want("types"), &tarball) {
        timings.time("types: TypeScript", || {
            run(Command::new("node")
                .current_dir(root)
                .env("AFTERGLOW_TARBALL", tarball)
                .args([
                    "--test",
                    NODE_TEST_TIMEOUT,
                    "--test-reporter=spec",
                    "tests/types/",
                ]))
        })?;
    }
    if let (true, Some(tarball)) = (want("e2e"), &tarball) {
        let files = e2e_files(root)?;
        let server = serve::Server::start(&root.join("www"), 0, www_mounts(root))?;
        let url = format!("http://{}/", server.addr());
        for engine in engines(args) {
            if engine == Engine::Firefox {
                setup::ensure_firefox(timings)?;
            }
            timings.time(
                &format!("e2e ({}): the served pages", engine.name()),
                || {
                    run(Command::new("node")
                        .current_dir(root)
                        .env("AFTERGLOW_URL", &url)
                        .env("AFTERGLOW_TARBALL", tarball)
                        .env("AFTERGLOW_ENGINE", engine.key())
                        .env("CHROMIUM", setup::chromium())
                        .env("FIREFOX", setup::firefox())
                        .args(["--test", NODE_TEST_TIMEOUT, "--test-reporter=spec"])
                        .args(&files))
                },
            )?;
        }
    }
    Ok(())
}

/// The browsers the browser suite and the end-to-end pages run in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Engine {
    Chromium,
    Firefox,
}

impl Engine {
    fn name(self) -> &'static str {
        match self {
            Engine::Chromium => "Chromium",
            Engine::Firefox => "Firefox",
        }
    }

    /// `AFTERGLOW_ENGINE` of tests/e2e/harness.mjs.
    fn key(self) -> &'static str {
        match self {
            Engine::Chromium => "chromium",
            Engine::Firefox => "firefox",
        }
    }
}

/// Both engines, Chromium first, or with `--chromium` or `--firefox` one.
fn engines(args: &[String]) -> Vec<Engine> {
    let only = |flag: &str| args.iter().any(|a| a == flag);
    [Engine::Chromium, Engine::Firefox]
        .into_iter()
        .filter(|e| match e {
            Engine::Chromium => !only("--firefox"),
            Engine::Firefox => !only("--chromium"),
        })
        .collect()
}

/// The end-to-end test files: all of `tests/e2e/`, each run in every
/// engine (tests/e2e/harness.mjs launches the one `AFTERGLOW_ENGINE` names).
fn e2e_files(root: &Path) -> Result<Vec<String>> {
    let dir = root.join("tests/e2e");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".test.mjs"))
        .map(|name| format!("tests/e2e/{name}"))
        .collect();
    files.sort();
    Ok(files)
}

/// Each node test file fails after 10 minutes instead of waiting for ever
/// (on Node 20 the limit applies to a whole file): the slowest file takes
/// about a minute here, and a stuck one should fail the run, not use up
/// CI's time.
const NODE_TEST_TIMEOUT: &str = "--test-timeout=600000";

/// wasm-bindgen-test-runner's limit, in seconds, on a whole browser run
/// (every test of the suite, not each one). The Chromium suite runs 90 s
/// on a two-core machine and ran past 120 s on a slower one, which a limit
/// of 120 cut off mid-test; a test that hangs is still caught, after ten
/// minutes.
const BROWSER_RUN_TIMEOUT: &str = "600";

/// The side-by-side benchmark: serves the repository root (the pages in
/// `bench/pages/` import `www/pkg/` and the peers from `node_modules/`) and
/// runs `bench/run.mjs`, which prints the table; with `--dot` first,
/// `bench/dot.mjs` (small lights) instead, and so on for `--defaults` and
/// `--antialias`. Other arguments go to the driver.
fn bench(root: &Path, args: &[String]) -> Result<()> {
    let (driver, args) = match args.first().map(String::as_str) {
        Some("--dot") => ("bench/dot.mjs", &args[1..]),
        Some("--defaults") => ("bench/defaults.mjs", &args[1..]),
        Some("--antialias") => ("bench/antialias.mjs", &args[1..]),
        Some("--native") => return native_bench::bench(root, &args[1..]),
        Some("--gpu-browser") => {
            let args = &args[1..];
            if gpu_browser::packs(args) {
                setup::ensure(root, setup::Need::Test)?;
                build(root)?;
            }
            return gpu_browser::bench(root, args);
        }
        _ => ("bench/run.mjs", args),
    };
    let shots = root.join("target/bench");
    // What the report names as its command (bench/record.mjs).
    let mut command = vec!["cargo xtask bench".to_string()];
    if driver != "bench/run.mjs" {
        command.push(args_flag(driver).into());
    }
    command.extend(args.iter().cloned());
    // `--before REV` (a commit, not a served path): that commit's package,
    // built here, measured in the same run as a column of its own.
    let mut driver_args = args.to_vec();
    if let Some(i) = driver_args.iter().position(|a| a == "--before") {
        match driver_args.get(i + 1) {
            Some(rev) if !rev.starts_with('/') => {
                driver_args[i + 1] = before::build_web(root, rev)?
            }
            Some(_) => {}
            None => return Err("--before needs a commit (or a served path to afterglow.js)".into()),
        }
    }
    drive(root, driver, |node| {
        node.env("AFTERGLOW_COMMAND", command.join(" "))
            .arg("--shots")
            .arg(&shots)
            .args(&driver_args)
    })
}

/// The `bench` flag that picks `driver`.
fn args_flag(driver: &str) -> &'static str {
    match driver {
        "bench/dot.mjs" => "--dot",
        "bench/antialias.mjs" => "--antialias",
        _ => "--defaults",
    }
}

/// The README's and guides' pictures of the demo (`docs/pictures.mjs` says which),
/// taken from `www/` served as `serve` serves it.
fn pictures(root: &Path) -> Result<()> {
    setup::ensure(root, setup::Need::Test)?;
    build(root)?;
    let server = serve::Server::start(&root.join("www"), 0, www_mounts(root))?;
    let url = format!("http://{}/", server.addr());
    run(Command::new("node")
        .current_dir(root)
        .env("AFTERGLOW_URL", &url)
        .env("CHROMIUM", setup::chromium())
        .arg("docs/pictures.mjs"))
}

/// The soak (`bench/soak.mjs`) against the built package, served like the
/// benchmark; `--quick` goes to the driver.
fn soak(root: &Path, args: &[String]) -> Result<()> {
    drive(root, "bench/soak.mjs", |node| node.args(args))
}

/// Set-up and build, then a node driver of `bench/` run against the
/// repository root served cross-origin isolated (`BENCH_URL`), with the
/// arguments `with_args` adds.
fn drive(
    root: &Path,
    driver: &str,
    with_args: impl FnOnce(&mut Command) -> &mut Command,
) -> Result<()> {
    setup::ensure(root, setup::Need::Test)?;
    build(root)?;
    let server = serve::Server::start_isolated(root, 0)?;
    let url = format!("http://{}/", server.addr());
    let mut node = Command::new("node");
    node.current_dir(root)
        .env("BENCH_URL", &url)
        .env("CHROMIUM", setup::chromium())
        .arg(driver);
    with_args(&mut node);
    run(&mut node)
}
