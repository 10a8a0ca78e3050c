//! Running the commands the tasks are made of: [`run`], the error type
//! every task returns, and [`Timings`], the time each stage took.

use std::process::Command;

pub type Result<T> = std::result::Result<T, String>;

/// Runs a command, failing with its name if it fails.
pub fn run(cmd: &mut Command) -> Result<()> {
    eprintln!("+ {}", describe(cmd));
    let status = cmd
        .status()
        .map_err(|e| format!("could not start {}: {e}", describe(cmd)))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{} failed ({status})", describe(cmd)))
    }
}

pub fn describe(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// Wall-clock time of each stage of a command, printed at its end (also
/// when a stage failed: the ones that ran are listed).
#[derive(Default)]
pub struct Timings {
    stages: Vec<(String, std::time::Duration)>,
}

impl Timings {
    /// Runs `f`, recording how long it took under `name`.
    pub fn time<T>(&mut self, name: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let start = std::time::Instant::now();
        let out = f();
        self.stages.push((name.to_string(), start.elapsed()));
        out
    }

    pub fn print(&self) {
        let total: std::time::Duration = self.stages.iter().map(|(_, d)| *d).sum();
        eprintln!("\nxtask: time per stage");
        for (name, d) in &self.stages {
            eprintln!("  {name:<40} {:>7.1} s", d.as_secs_f64());
        }
        eprintln!("  {:<40} {:>7.1} s", "total", total.as_secs_f64());
    }
}
