//! A static file server for one folder (`www/`, or the repository root for
//! the benchmark) on 127.0.0.1, with the MIME types a WebGPU page needs
//! (`application/wasm` lets the browser stream-compile).

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;

use crate::Result;

pub struct Server {
    server: Arc<tiny_http::Server>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Starts serving `root` on 127.0.0.1:`port` (0 picks a free port).
    pub fn start(root: &Path, port: u16) -> Result<Server> {
        Server::start_with(root, port, false)
    }

    /// As `start`, with every response cross-origin isolated (COOP
    /// `same-origin`, COEP `require-corp`): the benchmark pages need it for
    /// `performance.now()` finer than 100 µs.
    pub fn start_isolated(root: &Path, port: u16) -> Result<Server> {
        Server::start_with(root, port, true)
    }

    fn start_with(root: &Path, port: u16, isolated: bool) -> Result<Server> {
        let server = tiny_http::Server::http(("127.0.0.1", port))
            .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
        let server = Arc::new(server);
        let root = root.to_path_buf();
        let worker = server.clone();
        let thread = std::thread::spawn(move || {
            for request in worker.incoming_requests() {
                respond(&root, request, isolated);
            }
        });
        Ok(Server {
            server,
            thread: Some(thread),
        })
    }

    pub fn addr(&self) -> String {
        match self.server.server_addr() {
            tiny_http::ListenAddr::IP(a) => a.to_string(),
            #[allow(unreachable_patterns)]
            _ => "127.0.0.1".into(),
        }
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
        self.server.unblock();
    }
}

fn respond(root: &Path, request: tiny_http::Request, isolated: bool) {
    let url_path = request
        .url()
        .split(['?', '#'])
        .next()
        .unwrap_or("/")
        .to_string();
    let response = match resolve(root, &url_path) {
        Some(path) => match std::fs::read(&path) {
            Ok(bytes) => {
                let mut r = tiny_http::Response::from_data(bytes);
                let mut headers =
                    vec![("Content-Type", mime(&path)), ("Cache-Control", "no-store")];
                if isolated {
                    headers.push(("Cross-Origin-Opener-Policy", "same-origin"));
                    headers.push(("Cross-Origin-Embedder-Policy", "require-corp"));
                }
                for (k, v) in headers {
                    if let Ok(h) = tiny_http::Header::from_bytes(k, v) {
                        r.add_header(h);
                    }
                }
                r
            }
            Err(_) => not_found(),
        },
        None => not_found(),
    };
    let _ = request.respond(response);
}

fn not_found() -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
    tiny_http::Response::from_string("not found").with_status_code(404)
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
