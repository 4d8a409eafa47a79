// annotate_hidden_cpp.cpp - test target of tests/annotate_hidden.sh: a
// C++ kernel, a template in an anonymous namespace taking a function
// pointer, whose demangled names hold " (" ("void (anonymous
// namespace)::...", "short (*)(short, short)").  Unoptimised (the pragma:
// make's CXXFLAGS come after the target's), so the template is a function
// of its own with that name.
//
// shift_add<short, LAG> over N shorts (OB = 2N = 1024): out[i] = mix(in[i],
// in[i-LAG]); after out[i-1] (end 2i) in[i-LAG] is read at 2(i-LAG): bound
// OB - 2 LAG = 1006, first at i = LAG.  Pair (tpl-write, tpl-read).
#pragma GCC optimize("O0")

#include <cstdint>
#include <cstdlib>

#include "dmo/harness.h"

namespace {

template <typename T, int LAG> struct Shift {
	static T back(const T *p, int i) { return i >= LAG ? p[i - LAG] : T(0); } /* ANNOTATE:tpl-read */
};

template <typename T, int LAG> void shift_add(const T *in, T *out, int n, T (*mix)(T, T))
{
	for (int i = 0; i < n; i++) {
		T b = Shift<T, LAG>::back(in, i);
		out[i] = mix(in[i], b); /* ANNOTATE:tpl-write */
	}
}

short add(short a, short b)
{
	return static_cast<short>(a + b);
}

} // namespace

int main()
{
	const int n = 512;
	short *in = static_cast<short *>(calloc(n, sizeof *in));
	short *out = static_cast<short *>(calloc(n, sizeof *out));
	if (in == nullptr || out == nullptr ||
	    dmo_layer_begin("template", nullptr, in, n * sizeof *in, out, n * sizeof *out) != 0)
		return 1;
	shift_add<short, 9>(in, out, n, add);
	return dmo_layer_end() != 0;
}
