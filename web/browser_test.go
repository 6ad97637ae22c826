package web_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	_ "image/png"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/retro-solver/retro/internal/testsize"
	"github.com/retro-solver/retro/web"
)

// chromium finds a headless-capable Chromium: $RETRO_CHROMIUM, or one of
// the usual names on the PATH.
func chromium() (string, bool) {
	if p := os.Getenv("RETRO_CHROMIUM"); p != "" {
		return p, true
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	return "", false
}

// TestBrowserPlaysQuixo loads the page in headless Chromium, checks that
// the moves it shows are the API's, coloured by their worth, and plays a
// game of Quixo 3 x 3 to the end by clicking the best move each ply: the
// game lasts the start's depth. $RETRO_SCREENSHOT, if set, names a PNG file
// for a picture of the page two plies in (the README's).
func TestBrowserPlaysQuixo(t *testing.T) {
	testsize.SkipUnlessLong(t)
	bin, ok := chromium()
	if !ok {
		t.Skip("no Chromium found: install Debian's chromium package (apt-get install chromium) or set RETRO_CHROMIUM")
	}
	fx := newFixture(t)
	var start positionResp
	fx.getJSON(t, "/api/games/q3/start", &start)
	ctx, run, eval, console := browser(t, bin)
	run("loading the page", chromedp.Steps(chromedp.Navigate(fx.srv.URL+"/?game=q3"),
		chromedp.WaitVisible(chromedp.CSS("#moves li.move.best"))))

	// The moves shown are the API's, in its order, each coloured by what it
	// is worth to the mover.
	shown := eval(`[...document.querySelectorAll("#moves li.move")].map(li => li.className).join(";")`)
	var want []string
	for i, m := range start.Moves {
		c := "move " + map[string]string{"loss": "win", "win": "loss", "draw": "draw"}[m.Value]
		if i == 0 {
			c += " best"
		}
		want = append(want, c)
	}
	if shown != strings.Join(want, ";") {
		t.Fatalf("the page shows moves %q, the API has %q", shown, want)
	}
	if border := eval(`getComputedStyle(document.querySelector("#moves li.move.win")).borderLeftColor`); border != "rgb(26, 156, 58)" {
		t.Errorf("a winning move's border is %s, want the win colour", border)
	}

	plies := func() int {
		var n int
		fmt.Sscan(eval(`String(document.querySelectorAll("#history .ply").length - 1)`), &n)
		return n
	}
	for ply := 1; ; ply++ {
		if eval(`String(document.querySelector("#moves li.move.best") !== null)`) != "true" {
			break
		}
		run(fmt.Sprintf("ply %d", ply), chromedp.Click(chromedp.CSS("#moves li.move.best")))
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(
			`document.querySelectorAll("#history .ply").length === %d && !document.querySelector("#status").textContent.startsWith("loading")`, ply+1))); err != nil {
			t.Fatalf("ply %d: the page did not move: %v (browser errors: %q)", ply, err, *console)
		}
		if ply == 2 {
			screenshot(t, ctx)
		}
		if ply > 50 {
			t.Fatal("the game did not end in 50 plies")
		}
	}
	if n := plies(); uint64(n) != *start.Depth {
		t.Fatalf("the game lasted %d plies; the start is a win in %d", n, *start.Depth)
	}
	if status := eval(`document.querySelector("#status").textContent`); !strings.HasPrefix(status, "game over") {
		t.Fatalf("after the last move the page says %q", status)
	}
	if e := eval(`document.querySelector("#error").textContent`); e != "" {
		t.Fatalf("the page shows an error: %q", e)
	}

	// retro plays the second player: it answers a move by itself, and Undo
	// goes back to the first player's turn.
	run("restarting", chromedp.Steps(chromedp.Navigate(fx.srv.URL+"/?game=q3"),
		chromedp.WaitVisible(chromedp.CSS("#moves li.move.best"))))
	eval(`(() => { const a = document.querySelector("#auto"); a.value = "second"; a.dispatchEvent(new Event("change")); return "" })()`)
	run("a move against retro", chromedp.Click(chromedp.CSS("#moves li.move.best")))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll("#history .ply").length === 3`)); err != nil {
		t.Fatalf("retro did not answer: %v", err)
	}
	run("undo", chromedp.Click(chromedp.CSS("#undo")))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll("#history .ply").length === 1`)); err != nil {
		t.Fatalf("undo did not go back to the first player's turn: %v", err)
	}

	// Every other game's page draws its board and plays its best move.
	for _, id := range []string{"pawns", "police", "graph"} {
		run("loading "+id, chromedp.Steps(chromedp.Navigate(fx.srv.URL+"/?game="+id),
			chromedp.WaitVisible(chromedp.CSS("#history .ply"))))
		if n := eval(`String(document.querySelectorAll("#board > *").length)`); n == "0" {
			t.Fatalf("%s: no board drawn", id)
		}
		if eval(`String(document.querySelector("#moves li.move.best") !== null)`) == "true" {
			run(id+": best move", chromedp.Click(chromedp.CSS("#best")))
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll("#history .ply").length === 2`)); err != nil {
				t.Fatalf("%s: the best move was not played: %v", id, err)
			}
		}
		if e := eval(`document.querySelector("#error").textContent`); e != "" {
			t.Fatalf("%s: the page shows an error: %q", id, e)
		}
	}
}

// screenshot takes a picture of the page, checks that it shows moves in the
// win colour, and keeps it where $RETRO_SCREENSHOT says.
func screenshot(t *testing.T, ctx context.Context) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	img, _, err := image.Decode(bytes.NewReader(png))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	win := color.RGBA{0x1a, 0x9c, 0x3a, 0xff}
	found := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			if color.RGBAModel.Convert(img.At(x, y)) == win {
				found++
			}
		}
	}
	if found < 100 {
		t.Errorf("the screenshot shows %d pixels in the win colour", found)
	}
	if path := os.Getenv("RETRO_SCREENSHOT"); path != "" {
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// browser starts the headless Chromium bin and returns its tab and helpers
// that run an action (failing the test with the browser's errors) and
// evaluate an expression to a string; console holds the browser's errors.
func browser(t *testing.T, bin string) (ctx context.Context, run func(string, chromedp.Action[chromedp.Void]), eval func(string) string, console *[]string) {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1200, 900),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	console = new([]string)
	ctx, cancelTab := chromedp.NewContext(ctx, chromedp.WithErrorf(func(f string, a ...any) {
		*console = append(*console, fmt.Sprintf(f, a...))
	}))
	t.Cleanup(cancelTab)
	run = func(what string, a chromedp.Action[chromedp.Void]) {
		t.Helper()
		if _, err := chromedp.Run(ctx, a); err != nil {
			t.Fatalf("%s: %v (browser errors: %q)", what, err, *console)
		}
	}
	eval = func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("evaluating %s: %v", expr, err)
		}
		return v
	}
	return ctx, run, eval, console
}

// TestBrowserChessBoard shows a KQvK position on the page: a board of 64
// squares, light and dark, and the three pieces' glyphs.
func TestBrowserChessBoard(t *testing.T) {
	testsize.SkipUnlessLong(t)
	bin, ok := chromium()
	if !ok {
		t.Skip("no Chromium found: install Debian's chromium package (apt-get install chromium) or set RETRO_CHROMIUM")
	}
	sg := solveToDB(t, "kqk", "chess", []string{"-material=KQvK"}, "")
	s, err := web.New([]*web.Game{sg.Game})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	_, run, eval, _ := browser(t, bin)
	run("loading the page", chromedp.Steps(chromedp.Navigate(srv.URL+"/?game=kqk&p="+url.QueryEscape("8/8/8/8/8/2k5/8/KQ6 b - -")),
		chromedp.WaitVisible(chromedp.CSS("#moves li.move"))))
	squares := eval(`String(document.querySelectorAll("#board rect[data-cell]").length)`)
	dark := eval(`String([...document.querySelectorAll("#board rect[data-cell]")].filter(r => r.getAttribute("fill") === "#b58863").length)`)
	glyphs := eval(`[...document.querySelectorAll("#board text")].map(t => t.textContent).sort().join("")`)
	if squares != "64" || dark != "32" || glyphs != "♔♕♚" {
		t.Fatalf("the board has %s squares, %s dark, pieces %q; want 64, 32 and ♔♕♚", squares, dark, glyphs)
	}
}
