# cmsis_lines.awk - test helper for tests/annotate_cmsis_nn.sh: the lines
# of a C source that hold the fixed string pat inside the body of function
# fn (its definition starts a line, its body ends at a "}" starting one),
# as the portable build compiles them: no ARM_MATH_* macro (nor any other
# feature macro) defined, so "#if defined(X)", "#ifdef X" and "#elif
# defined(X)" branches are out and their "#else" in; "#if !defined(X)" and
# "#ifndef X" are in.  Prints the line numbers, one a line.
#   awk -v fn=FUNCTION -v pat=TEXT -f cmsis_lines.awk FILE.c
function live(   k) { for (k = 1; k <= depth; k++) if (!on[k]) return 0; return 1 }
/^[ \t]*#[ \t]*if/ {
	depth++
	on[depth] = $0 ~ /#[ \t]*ifndef/ || ($0 ~ /!defined/ && $0 !~ /&&|\|\|/) ||
		($0 !~ /#[ \t]*ifdef/ && $0 !~ /defined/)
	taken[depth] = on[depth]
	next
}
/^[ \t]*#[ \t]*elif/ { on[depth] = 0; next }
/^[ \t]*#[ \t]*else/ { on[depth] = !taken[depth]; next }
/^[ \t]*#[ \t]*endif/ { depth--; next }
/^[A-Za-z]/ && index($0, fn "(") { body = 1 }
body && /^}/ { body = 0 }
body && live() && index($0, pat) { print NR }
