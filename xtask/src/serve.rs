//! A static file server for one folder (`www/`, or the repository root for
//! the benchmark) on 127.0.0.1, plus folders mounted under a URL prefix
//! (three.js from `node_modules/` for the integration page), with the MIME types a WebGPU page needs
//! (`application/wasm` lets the browser stream-compile).
//!
//! One thread per connection and one response per connection
//! (`Connection: close`), on the standard library alone. tiny_http 0.12,
//! used before, could leave a new connection queued behind its thread pool
//! until another keep-alive connection closed: with several pages open,
//! a page load then stalled for minutes.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crate::exec::Result;

/// A folder served under a URL prefix (`/vendor/three/`) instead of from
/// the root.
pub type Mount = (&'static str, PathBuf);

pub struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// Fails at once, with what to do, when `port` on 127.0.0.1 is taken, so
/// that `cargo xtask serve` says so before a build of a minute.
pub fn check_port(port: u16) -> Result<()> {
    match TcpListener::bind(("127.0.0.1", port)) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => Err(format!(
            "port {port} on 127.0.0.1 is already in use (another `cargo xtask serve`?). \
             Stop that server, or pick another port: cargo xtask serve --port {}",
            port.wrapping_add(1).max(1024)
        )),
        Err(e) => Err(format!(
            "cannot listen on 127.0.0.1:{port}: {e}. Pick another port: cargo xtask serve --port 8080"
        )),
    }
}

impl Server {
    /// Starts serving `root` on 127.0.0.1:`port` (0 picks a free port).
    /// `mounts` answer the URLs under their prefix.
    pub fn start(root: &Path, port: u16, mounts: Vec<Mount>) -> Result<Server> {
        Server::start_with(root, port, false, mounts)
    }

    /// As `start`, with every response cross-origin isolated (COOP
    /// `same-origin`, COEP `require-corp`): the benchmark pages need it for
    /// `performance.now()` finer than 100 µs.
    pub fn start_isolated(root: &Path, port: u16) -> Result<Server> {
        Server::start_with(root, port, true, Vec::new())
    }

    fn start_with(root: &Path, port: u16, isolated: bool, mounts: Vec<Mount>) -> Result<Server> {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
        let stop = Arc::new(AtomicBool::new(false));
        let root = Arc::new((root.to_path_buf(), mounts));
        let stopping = stop.clone();
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::Acquire) {
                    break;
                }
                // A failed accept concerns that one connection only.
                let Ok(stream) = stream else { continue };
                let root = root.clone();
                std::thread::spawn(move || {
                    // The browser sees a reset connection; nothing to do here.
                    let _ = respond(&root.0, &root.1, stream, isolated);
                });
            }
        });
        Ok(Server {
            addr,
            stop,
            thread: Some(thread),
        })
    }

    pub fn addr(&self) -> String {
        self.addr.to_string()
    }

    /// Serves until the process is stopped.
    pub fn join(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        // Wake the accept loop so that it sees `stop`.
        let _ = TcpStream::connect(self.addr);
    }
}

/// Reads one request (its line and headers) and answers it, then closes.
fn respond(
    root: &Path,
    mounts: &[Mount],
    mut stream: TcpStream,
    isolated: bool,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim_end().is_empty() {
            break;
        }
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let url_path = target.split(['?', '#']).next().unwrap_or("/");
    let file = match method {
        "GET" | "HEAD" => mounts
            .iter()
            .find_map(|(prefix, dir)| url_path.strip_prefix(prefix).map(|rest| (dir, rest)))
            .map_or_else(|| resolve(root, url_path), |(dir, rest)| resolve(dir, rest))
            .and_then(|path| std::fs::read(&path).ok().map(|bytes| (path, bytes))),
        _ => None,
    };
    let (status, content_type, body) = match file {
        Some((path, bytes)) => ("200 OK", mime(&path), bytes),
        None => (
            "404 Not Found",
            "text/plain; charset=utf-8",
            b"not found".to_vec(),
        ),
    };
    let mut head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n",
        body.len()
    );
    if isolated {
        head.push_str(
            "Cross-Origin-Opener-Policy: same-origin\r\nCross-Origin-Embedder-Policy: require-corp\r\n",
        );
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    if method != "HEAD" {
        stream.write_all(&body)?;
    }
    stream.flush()
}

/// Maps a URL path to a file under `root`, refusing anything that leaves it.
fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let decoded = url_path.replace("%20", " ");
    let mut path = root.to_path_buf();
    for c in Path::new(decoded.trim_start_matches('/')).components() {
        match c {
            Component::Normal(part) => path.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if path.is_dir() {
        path.push("index.html");
    }
    path.is_file().then_some(path)
}

fn mime(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "svg" => "image/svg+xml",
        "ts" => "text/plain; charset=utf-8",
        "wgsl" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}
