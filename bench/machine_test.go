package bench

import (
	"strings"
	"testing"
)

func TestMachineLines(t *testing.T) {
	lines := ThisMachine().Lines()
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "cpu: ") || !strings.HasPrefix(lines[1], "cores: ") {
		t.Fatalf("lines %q", lines)
	}
	t.Log(strings.Join(lines, "\n"))
}
