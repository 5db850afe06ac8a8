//! A minimal WebDriver client (W3C protocol over HTTP/1.1 on a local socket) for the browser test: just
//! the calls it makes, with `std::net` and `serde_json`, so that the test needs no browser-automation crate.
//! It talks to `chromedriver`, which drives Debian's headless `chromium`.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A running `chromedriver` and one browser session; both end when it is dropped.
pub(crate) struct Browser {
    driver: Child,
    port: u16,
    session: String,
}

/// Where a program is: `$ENV` when set, else the first of `names` found on `PATH` or as a path.
pub(crate) fn find(env: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(env) {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    names.iter().find_map(|name| {
        let direct = Path::new(name);
        if direct.is_absolute() {
            return direct.is_file().then(|| direct.to_path_buf());
        }
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

impl Browser {
    /// Starts `driver` on a free port and a headless session of `chromium`, logging the console.
    pub(crate) fn start(driver: &Path, chromium: &Path) -> Result<Browser, String> {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("no free port: {e}"))?
            .port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", driver.display()))?;
        let mut browser = Browser {
            driver: child,
            port,
            session: String::new(),
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while browser.call("GET", "/status", None).is_err() {
            if Instant::now() > deadline {
                return Err("chromedriver did not answer within 20 s".into());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {
                "binary": chromium,
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                         "--force-device-scale-factor=1", "--window-size=1280,1000"]
            }
        }}});
        let answer = browser.call("POST", "/session", Some(capabilities))?;
        browser.session = answer["sessionId"]
            .as_str()
            .ok_or_else(|| format!("no session: {answer}"))?
            .to_string();
        Ok(browser)
    }

    /// One command of the session: `path` is relative to `/session/{id}`.
    pub(crate) fn command(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value, String> {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    /// Opens `url` in a window `width` wide, then makes the window as tall as the page, so that one
    /// screenshot holds all of it.
    pub(crate) fn open(&self, url: &str, width: u32) -> Result<(), String> {
        let rect = |height: u64| json!({"width": width, "height": height});
        self.command("POST", "/window/rect", Some(rect(1000)))?;
        self.command("POST", "/url", Some(json!({ "url": url })))?;
        let height = self
            .command(
                "POST",
                "/execute/sync",
                Some(json!({"script": "return document.documentElement.scrollHeight", "args": []})),
            )?
            .as_u64()
            .unwrap_or(1000);
        self.command("POST", "/window/rect", Some(rect(height.min(16_000) + 200)))?;
        Ok(())
    }

    /// The browser's console entries since the last call, as (level, message).
    pub(crate) fn console(&self) -> Result<Vec<(String, String)>, String> {
        let entries = self.command("POST", "/se/log", Some(json!({"type": "browser"})))?;
        Ok(entries
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|e| {
                        (
                            e["level"].as_str().unwrap_or("").to_string(),
                            e["message"].as_str().unwrap_or("").to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default())
    }

    /// (value of `attribute`, x, y, width, height) of every element matching `css`.
    pub(crate) fn rects(
        &self,
        css: &str,
        attribute: &str,
    ) -> Result<Vec<(String, [f64; 4])>, String> {
        let found = self.command(
            "POST",
            "/elements",
            Some(json!({"using": "css selector", "value": css})),
        )?;
        let ids: Vec<String> = found
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e.as_object()?.values().next()?.as_str().map(String::from))
            .collect();
        ids.iter()
            .map(|id| {
                let r = self.command("GET", &format!("/element/{id}/rect"), None)?;
                let a =
                    self.command("GET", &format!("/element/{id}/attribute/{attribute}"), None)?;
                let n = |k: &str| r[k].as_f64().unwrap_or(0.0);
                Ok((
                    a.as_str().unwrap_or("").to_string(),
                    [n("x"), n("y"), n("width"), n("height")],
                ))
            })
            .collect()
    }

    /// A PNG of the window.
    pub(crate) fn screenshot(&self) -> Result<Vec<u8>, String> {
        let value = self.command("GET", "/screenshot", None)?;
        base64(value.as_str().ok_or("no screenshot")?)
    }

    /// One HTTP request to the driver; the `value` of its JSON answer, or the error it reports.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut stream = loop {
            match TcpStream::connect(("127.0.0.1", self.port)) {
                Ok(stream) => break stream,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.to_string()),
            }
        };
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .map_err(|e| e.to_string())?;
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .map_err(|e| e.to_string())?;
        let (head, payload) = read_response(&mut stream)?;
        let _ = head;
        let answer: Value = serde_json::from_slice(&payload).map_err(|e| e.to_string())?;
        let value = answer["value"].clone();
        if value.get("error").is_some() {
            return Err(format!("{method} {path}: {value}"));
        }
        Ok(value)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.command("DELETE", "", None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Reads one HTTP response: its header (lower-cased) and its body, by `Content-Length` or chunks (the
/// driver may keep the connection open, so reading to the end would wait).
fn read_response(stream: &mut TcpStream) -> Result<(String, Vec<u8>), String> {
    let mut raw = Vec::new();
    let mut buf = [0u8; 65536];
    let complete = |raw: &[u8]| -> Result<Option<(String, Vec<u8>)>, String> {
        let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
            return Ok(None);
        };
        let head = String::from_utf8_lossy(&raw[..split]).to_lowercase();
        let body = &raw[split + 4..];
        if head.contains("transfer-encoding: chunked") {
            return Ok(body
                .ends_with(b"0\r\n\r\n")
                .then(|| unchunk(body))
                .transpose()?
                .map(|b| (head, b)));
        }
        let length = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse::<usize>().ok());
        Ok(match length {
            Some(n) if body.len() >= n => Some((head.clone(), body[..n].to_vec())),
            Some(_) => None,
            None => None,
        })
    };
    loop {
        // Other tests start and stop processes meanwhile: a signal may interrupt the read, which is retried.
        let n = match stream.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.to_string()),
        };
        raw.extend_from_slice(&buf[..n]);
        if let Some(done) = complete(&raw)? {
            return Ok(done);
        }
        if n == 0 {
            return Err("the driver closed the connection early".into());
        }
    }
}

/// The body of a chunked HTTP response.
fn unchunk(mut data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let line = data
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("bad chunk")?;
        let size = usize::from_str_radix(String::from_utf8_lossy(&data[..line]).trim(), 16)
            .map_err(|e| e.to_string())?;
        if size == 0 {
            return Ok(out);
        }
        let start = line + 2;
        out.extend_from_slice(data.get(start..start + size).ok_or("short chunk")?);
        data = data.get(start + size + 2..).ok_or("short chunk")?;
    }
}

/// Standard base64 (RFC 4648 §4) to bytes.
fn base64(text: &str) -> Result<Vec<u8>, String> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut bits, mut count) = (0u32, 0);
    for c in text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
    {
        bits = (bits << 6) | u32::from(value(c).ok_or("not base64")?);
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
        }
    }
    Ok(out)
}

#[test]
fn base64_decodes_the_rfc_examples() {
    // RFC 4648 §10.
    assert_eq!(base64("Zm9vYmFy").unwrap(), b"foobar");
    assert_eq!(base64("Zm9vYg==").unwrap(), b"foob");
    assert_eq!(base64("Zg==").unwrap(), b"f");
}
