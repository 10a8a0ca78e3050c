//! ChromeDriver for the browser tests, started here rather than by
//! wasm-bindgen's test runner. The runner gives a driver it starts itself
//! five seconds to open its port and kills it after that; a cold start on a
//! new or busy machine can take longer. Started here, the driver gets a
//! minute (and a second try), and the runner is pointed at it through
//! `CHROMEDRIVER_REMOTE`.

use std::fs::File;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::exec::Result;

/// How long a driver may take to open its port.
const STARTUP: Duration = Duration::from_secs(60);
/// Starts before giving up.
const TRIES: usize = 2;

/// A running ChromeDriver, stopped when dropped.
pub struct Driver {
    child: Child,
    addr: SocketAddr,
}

impl Driver {
    /// Starts `program` and waits until it accepts connections. Its output
    /// goes to `log`, which an error quotes.
    pub fn start(program: &str, log: &Path) -> Result<Driver> {
        let mut last = String::new();
        for attempt in 1..=TRIES {
            match Self::try_start(program, log) {
                Ok(driver) => return Ok(driver),
                Err(e) => {
                    eprintln!("xtask: ChromeDriver start {attempt} of {TRIES}: {e}");
                    last = e;
                }
            }
        }
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(20)..].join("\n");
        Err(format!("{last}\nlast lines of {}:\n{tail}", log.display()))
    }

    fn try_start(program: &str, log: &Path) -> Result<Driver> {
        let port = free_port()?;
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let out = File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
        let err = out
            .try_clone()
            .map_err(|e| format!("{}: {e}", log.display()))?;
        let child = Command::new(program)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("could not start {program}: {e}"))?;
        let mut driver = Driver { child, addr };
        let start = Instant::now();
        while start.elapsed() < STARTUP {
            if let Ok(Some(status)) = driver.child.try_wait() {
                return Err(format!("{program} exited while starting ({status})"));
            }
            if TcpStream::connect_timeout(&addr, Duration::from_secs(1)).is_ok() {
                eprintln!(
                    "xtask: ChromeDriver listening on {addr} after {:.1} s",
                    start.elapsed().as_secs_f64()
                );
                return Ok(driver);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        // Dropping `driver` stops it.
        Err(format!(
            "{program} did not open port {port} within {} s",
            STARTUP.as_secs()
        ))
    }

    /// The URL wasm-bindgen's runner reads from `CHROMEDRIVER_REMOTE`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port nothing listens on now (the OS picks it).
fn free_port() -> Result<u16> {
    let listener = TcpListener::bind(("127.0.0.1", 0)).map_err(|e| format!("no free port: {e}"))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("no free port: {e}"))
}
