//! Applying options, and `dynamicRange: 'auto'`: the renderer keeps the
//! options as set and renders with them adapted to the display's dynamic
//! range, which it follows from frame to frame.

use super::{output_spec, WebRenderer};
use crate::error::Error;
use crate::options::{self, DynamicRange, Effect, Options};
use crate::web::display::DisplayWatch;
use crate::web::interop::warn;

impl WebRenderer {
    /// Applies validated options. The steps that can fail run before the
    /// renderer's own state changes, and a failure part-way puts the
    /// previous options back, so a refused change changes nothing. If
    /// putting them back fails too, that is logged: the first error is the
    /// one thrown.
    pub fn apply_options(&mut self, next: Options) -> Result<(), Error> {
        let auto = next.canvas.dynamic_range == DynamicRange::Auto;
        if auto && self.display.is_none() {
            self.display = DisplayWatch::new(self.canvas.element());
        }
        let hdr = auto
            && self.display.as_ref().is_some_and(DisplayWatch::hdr)
            && self.canvas.caps().hdr();
        self.display_seen = hdr;
        let result = self.apply(next, hdr);
        if self.options.canvas.dynamic_range != DynamicRange::Auto {
            self.display = None;
        }
        result
    }

    /// The options the GPU work follows: those set, with the canvas format
    /// and tone mapping chosen for the display under `dynamicRange: 'auto'`.
    pub fn effective(&self) -> Options {
        self.options.for_display(self.hdr)
    }

    /// Under `dynamicRange: 'auto'`, moves the canvas to the display's
    /// dynamic range when the media query has changed since the last frame.
    /// A failure is logged, not thrown: the frame is not the caller's fault.
    pub(super) fn follow_display(&mut self) {
        let caps = self.canvas.caps();
        let Some(hdr) = self.display.as_ref().map(|d| d.hdr() && caps.hdr()) else {
            return;
        };
        if hdr != self.display_seen {
            self.display_seen = hdr;
            if let Err(e) = self.apply(self.options, hdr) {
                warn(&format!(
                    "afterglow: following the display's dynamic range failed: {e}"
                ));
            }
        }
    }

    /// Applies `next` (as set) for a display that does or does not show
    /// high dynamic range.
    fn apply(&mut self, next: Options, hdr: bool) -> Result<(), Error> {
        if (next, hdr) == (self.options, self.hdr) {
            return Ok(());
        }
        self.allocating(&mut |r| r.apply_now(next, hdr))
    }

    fn apply_now(&mut self, next: Options, hdr: bool) -> Result<(), Error> {
        let prev_set = self.options;
        let (prev, next_set) = (self.effective(), next);
        let next = next.for_display(hdr);
        let prev_output = *self.chain.output();
        let output = if options::changes(&prev, &next, Effect::Canvas) {
            output_spec(&next, &self.gpu)?
        } else {
            prev_output
        };
        if let Err(e) = self.apply_options_steps(prev, next, next_set, output) {
            if let Err(back) = self.apply_options_steps(next, prev, prev_set, prev_output) {
                warn(&format!(
                    "afterglow: setOptions() failed ({e}), and restoring the previous options \
                     failed as well: {back}"
                ));
            }
            return Err(e);
        }
        self.hdr = hdr;
        Ok(())
    }
}
