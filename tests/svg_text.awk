# svg_text.awk - test helper for tests/plot_render.sh: the estimated boxes of
# the unrotated texts of a gnuplot SVG (0.6 em a character, generous for the
# sans font; 0.95 em tall), and a line for every text reaching outside the
# canvas (a clipped tick label or margin tag) and every two texts that
# overlap (a label over tick labels, a key over the axis label).  Prints
# nothing for a clean layout.
function unesc(s) {
	gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s); gsub(/&quot;/, "\"", s)
	gsub(/&apos;|&#39;/, "'", s); gsub(/&amp;/, "\\&", s)
	return s
}
# gnuplot writes the canvas size on a line of its own: ' width="W" height="H"'.
/^ width="[0-9]/ {
	if (match($0, /width="[0-9.]+"/)) W = substr($0, RSTART + 7, RLENGTH - 8) + 0
	if (match($0, /height="[0-9.]+"/)) H = substr($0, RSTART + 8, RLENGTH - 9) + 0
}
# A text is a group placed by translate(x,y), its string on the next line;
# rotated ones (the y label) are left out.
/<g transform="translate\(/ {
	rot = index($0, "rotate(") > 0
	match($0, /translate\([-0-9.]+,[-0-9.]+\)/); split(substr($0, RSTART + 10, RLENGTH - 11), xy, ",")
	size = 11; if (match($0, /font-size="[0-9.]+"/)) size = substr($0, RSTART + 11, RLENGTH - 12) + 0
	anchor = "start"; if (match($0, /text-anchor="[a-z]+"/)) anchor = substr($0, RSTART + 13, RLENGTH - 14)
	pending = 1; next
}
pending && /<text>/ {
	pending = 0
	if (rot) next
	s = $0; sub(/.*<text>/, "", s); sub(/<\/text>.*/, "", s); s = unesc(s)
	w = length(s) * 0.6 * size
	x0 = anchor == "end" ? xy[1] - w : anchor == "middle" ? xy[1] - w / 2 : xy[1]
	n++; L[n] = x0; R[n] = x0 + w; T[n] = xy[2] - 0.75 * size; B[n] = xy[2] + 0.2 * size; S[n] = s
}
END {
	for (i = 1; i <= n; i++) {
		if (L[i] < 0 || R[i] > W || T[i] < 0 || B[i] > H)
			printf "outside the %dx%d canvas: '%s' [%.0f..%.0f]x[%.0f..%.0f]\n", W, H, S[i], L[i], R[i], T[i], B[i]
		for (j = i + 1; j <= n; j++)
			if (L[i] < R[j] && L[j] < R[i] && T[i] < B[j] && T[j] < B[i])
				printf "overlap: '%s' and '%s'\n", S[i], S[j]
	}
}
