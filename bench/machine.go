package bench

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/klauspost/cpuid/v2"
)

// Machine is what a benchmark report says about the computer it ran on.
type Machine struct {
	Brand             string
	Physical, Logical int // cores; 0 where unknown
	L1D, L2, L3       int // cache sizes in bytes; -1 where unknown
	Features          []string
	GOMAXPROCS        int
}

// ThisMachine returns the facts of the running machine, from CPUID.
func ThisMachine() Machine {
	c := cpuid.CPU
	m := Machine{
		Brand:      c.BrandName,
		Physical:   c.PhysicalCores,
		Logical:    c.LogicalCores,
		L1D:        c.Cache.L1D,
		L2:         c.Cache.L2,
		L3:         c.Cache.L3,
		GOMAXPROCS: runtime.GOMAXPROCS(0),
	}
	// The features the hot loops lean on: population count and trailing
	// zeros (math/bits), BMI2, and AVX2 for wide memory operations.
	for _, f := range []struct {
		id   cpuid.FeatureID
		name string
	}{{cpuid.POPCNT, "popcnt"}, {cpuid.BMI1, "bmi1"}, {cpuid.BMI2, "bmi2"}, {cpuid.AVX2, "avx2"}, {cpuid.AVX512F, "avx512f"}} {
		if c.Supports(f.id) {
			m.Features = append(m.Features, f.name)
		}
	}
	return m
}

// Lines returns the facts as the lines `retro info` prints and a bench
// report starts with.
func (m Machine) Lines() []string {
	brand := m.Brand
	if brand == "" {
		brand = "unknown"
	}
	return []string{
		"cpu: " + brand,
		fmt.Sprintf("cores: %d physical, %d logical; GOMAXPROCS %d", m.Physical, m.Logical, m.GOMAXPROCS),
		fmt.Sprintf("caches: L1d %s, L2 %s, L3 %s", cacheSize(m.L1D), cacheSize(m.L2), cacheSize(m.L3)),
		"features: " + strings.Join(m.Features, " "),
		fmt.Sprintf("go: %s %s/%s", runtime.Version(), runtime.GOOS, runtime.GOARCH),
	}
}

func cacheSize(b int) string {
	switch {
	case b < 0:
		return "unknown"
	case b >= 1<<20:
		return fmt.Sprintf("%d MiB", b>>20)
	}
	return fmt.Sprintf("%d KiB", b>>10)
}
