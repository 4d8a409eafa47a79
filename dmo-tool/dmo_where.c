/* dmo_where.c - code locations (dmo_where.h): the sites of the guest's
 * loads and stores, and each layer's where file, written when the layer
 * ends, while the code it names is still mapped.
 *
 * Names come from Valgrind's debug information: the function, source
 * file and line of the instruction, and through an inlined-call cursor
 * the calls it was inlined into.  A program without debug information
 * still gets each instruction's address and the object it lies in. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "pub_tool_xarray.h"

#include "dmo_layers.h"
#include "dmo_where.h"
#include "event.h"
#include "where_format.h"

/* The core's switch for reading inlined-call information, which the
 * installed headers do not declare (pub_core_options.h).  Valgrind turns
 * it on by default for memcheck and a few others only, before the tool
 * starts and before it parses the options, so a tool that sets it when
 * it starts makes it its own default. */
extern Bool VG_(clo_read_inline_info);

/* The core's list of --fullpath-after prefixes (pub_core_options.h, made
 * when the options are read): an empty one makes VG_(describe_IP) give
 * each frame's file with its folder, which tells a system header from
 * the kernel's own file (system_header). */
extern XArray *VG_(clo_fullpath_after);

struct dmo_where_layer dmo_where;

static VgHashTable *sites;

void dmo_where_pre_clo_init(void)
{
	VG_(clo_read_inline_info) = True;
}

/* "DIR/FILE" of the debug information, or FILE when absolute or without
 * DIR, in PATH. */
static void source_path(HChar *path, SizeT size, const HChar *dir, const HChar *file)
{
	if (dir != NULL && dir[0] != '\0' && file[0] != '/')
		VG_(snprintf)(path, size, "%s/%s", dir, file);
	else
		VG_(snprintf)(path, size, "%s", file);
}

/* Whether the instruction at IP has a source line in a file that exists
 * here.  Asked once per site, when its code is translated; the last file
 * asked about is remembered, as neighbouring instructions share it. */
static Bool has_source(Addr ip)
{
	static HChar last[1024];
	static Bool last_exists;
	const HChar *file, *dir;
	HChar path[1024];
	struct vg_stat st;
	UInt line;

	if (!VG_(get_filename_linenum)(VG_(current_DiEpoch)(), ip, &file, &dir, &line))
		return False;
	source_path(path, sizeof path, dir, file);
	if (VG_(strcmp)(path, last) != 0) {
		VG_(strcpy)(last, path);
		last_exists = !sr_isError(VG_(stat)(path, &st));
	}
	return last_exists;
}

/* The site of the instruction at IP, made on first use. */
struct dmo_site *dmo_where_site(Addr ip)
{
	struct dmo_site *site;
	if (sites == NULL)
		sites = VG_(HT_construct)("dmo.sites");
	site = VG_(HT_lookup)(sites, ip);
	if (site == NULL) {
		site = VG_(calloc)("dmo.site", 1, sizeof *site);
		site->ip = ip;
		site->no_source = !has_source(ip);
		VG_(HT_add_node)(sites, site);
	}
	return site;
}

static struct dmo_probe *probe_of(struct dmo_site *site, UWord size, UWord time_offset,
				  UInt helper, Long stride, ULong step, struct dmo_probe *stream)
{
	struct dmo_probe *probe;
	/* An instruction has a few accesses, and a few places in blocks. */
	for (probe = site->probes; probe != NULL; probe = probe->next) {
		if (probe->size != size || probe->helper != helper)
			continue;
		if (probe->time_offset == time_offset && probe->lead_stride == stride &&
		    probe->lead_step == step)
			return probe;
		if (stream == NULL)
			stream = probe->stream;
	}
	probe = VG_(calloc)("dmo.probe", 1, sizeof *probe);
	probe->site = site;
	probe->size = size;
	probe->time_offset = time_offset;
	probe->helper = helper;
	probe->stream = stream != NULL ? stream : probe;
	probe->lead_stride = stride;
	probe->lead_stride2 = 2 * stride;
	probe->lead_step = step;
	probe->lead_step2 = 2 * step;
	probe->next = site->probes;
	site->probes = probe;
	return probe;
}

struct dmo_probe *dmo_where_probe(Addr ip, UWord size, UWord time_offset, UInt helper)
{
	return probe_of(dmo_where_site(ip), size, time_offset, helper, 0, 0, NULL);
}

struct dmo_probe *dmo_where_lead_probe(const struct dmo_probe *plain, UInt helper, Long stride,
				       ULong step)
{
	return probe_of(plain->site, plain->size, plain->time_offset, helper, stride, step,
			plain->stream);
}

void dmo_where_open(void)
{
	UInt layer = dmo_where.layer + 1;
	VG_(memset)(&dmo_where, 0, sizeof dmo_where);
	/* Stamp 0 is a new site's: never a layer's. */
	dmo_where.layer = layer == 0 ? 1 : layer;
}

void dmo_where_stack(struct dmo_where_access *a, struct dmo_site *site)
{
	UInt k;
	a->n_callers = VG_(get_StackTrace)(VG_(get_running_tid)(), a->callers, DMO_WHERE_CALLERS,
					   NULL, NULL, 0);
	for (k = 1; k < a->n_callers; k++)
		if (has_source(a->callers[k]))
			return;
	/* No caller to name: a stripped program, say, where every store
	 * would unwind for nothing. */
	site->no_source = False;
}

void dmo_where_touch(struct dmo_site *site)
{
	site->layer = dmo_where.layer;
	VG_(memset)(site->counts, 0, sizeof site->counts);
	site->next_touched = dmo_where.touched;
	dmo_where.touched = site;
}

void dmo_where_moved(struct dmo_site *site, UInt flags, ULong offset, ULong size,
		     unsigned moved)
{
	struct dmo_where_access *held =
		moved & DMO_MOVED_OUT_WRITE_END ? &dmo_where.out_write_holder
		: moved & DMO_MOVED_IN_WRITE_START ? &dmo_where.in_write_holder : NULL;
	if (held != NULL)
		dmo_where_hold(held, site, flags, offset, size);
	if (moved & DMO_MOVED_BOUND) {
		dmo_where.pair[0] = flags & DMO_EV_OUT ? dmo_where.in_write_holder
						       : dmo_where.out_write_holder;
		dmo_where_hold(&dmo_where.pair[1], site, flags, offset, size);
		dmo_where.have_pair = True;
	}
}

/* ---- writing the file: a buffer flushed as it fills ---- */

struct out {
	Int fd;
	Bool failed;
	UInt used;
	HChar buf[8192];
};

static void flush(struct out *o)
{
	if (o->used > 0 && !o->failed && VG_(write)(o->fd, o->buf, o->used) != (Int)o->used)
		o->failed = True;
	o->used = 0;
}

static void put_char(struct out *o, HChar c)
{
	if (o->used == sizeof o->buf)
		flush(o);
	o->buf[o->used++] = c;
}

static void put(struct out *o, const HChar *s)
{
	for (; *s; s++)
		put_char(o, *s);
}

/* A text field, quoted as CSV wants: names may hold commas. */
static void put_text(struct out *o, const HChar *s)
{
	put_char(o, '"');
	for (; *s; s++) {
		if (*s == '"')
			put_char(o, '"');
		put_char(o, *s);
	}
	put_char(o, '"');
}

static void put_number(struct out *o, const HChar *format, ULong n)
{
	HChar text[32];
	VG_(snprintf)(text, sizeof text, format, n);
	put(o, text);
}

/* ---- naming an instruction ---- */

/* Text copied out of the debug information, whose strings last only
 * until its next call. */
struct names {
	HChar function[512], file[1024], object[1024], inlined_into[2048];
	UInt line;
	Bool in_object;     /* OBJECT_ADDRESS is known */
	Addr object_address; /* the instruction's address in its ELF file */
};

static void copy(HChar *to, SizeT size, const HChar *from)
{
	VG_(strncpy)(to, from, size - 1);
	to[size - 1] = '\0';
}

/* The "(WHERE)" that ends FUNCTION (WHERE) in TEXT: the parenthesised
 * group at its end, its parentheses balanced (a folder may hold them),
 * when a space comes before it; NULL when TEXT is a function alone.  The
 * group is found from the end because a C++ name may hold " (" itself: a
 * return type before "(anonymous namespace)::", a parameter "int (*)(int)";
 * such a name ends its parameters with no space before their "(". */
static const HChar *where_part(const HChar *text)
{
	SizeT k = VG_(strlen)(text);
	Int depth = 0;
	if (k == 0 || text[k - 1] != ')')
		return NULL;
	while (k-- > 0) {
		if (text[k] == ')')
			depth++;
		else if (text[k] == '(' && --depth == 0)
			return k > 0 && text[k - 1] == ' ' ? text + k : NULL;
	}
	return NULL;
}

/* One frame of VG_(describe_IP): "0xADDR: FUNCTION (WHERE)", WHERE being
 * "FILE:LINE" or "in OBJECT", or "0xADDR: FUNCTION" alone; FUNCTION is
 * "???" when unknown.  Returns the function part in FN (empty when
 * unknown) and the rest, "(WHERE)", in *REST ("" when none). */
static void split_frame(const HChar *frame, HChar *fn, SizeT size, const HChar **rest)
{
	const HChar *start = VG_(strstr)(frame, ": ");
	const HChar *where;
	SizeT len;
	start = start != NULL ? start + 2 : frame;
	where = where_part(start);
	len = where != NULL ? (SizeT)(where - 1 - start) : VG_(strlen)(start);
	if (len >= size)
		len = size - 1;
	VG_(memcpy)(fn, start, len);
	fn[len] = '\0';
	if (VG_(strcmp)(fn, "???") == 0)
		fn[0] = '\0';
	*rest = where != NULL ? where : "";
}

/* Whether the "(WHERE)" of a frame is "(PATH:LINE)": then PATH (at most
 * SIZE bytes with its end) in PATH_OUT and *LINE; else False ("(in
 * OBJECT)"). */
static Bool frame_source(const HChar *where, HChar *path_out, SizeT size, UInt *line)
{
	const HChar *colon = VG_(strrchr)(where, ':');
	SizeT len;
	if (where[0] != '(' || colon == NULL || colon[1] < '0' || colon[1] > '9')
		return False;
	*line = (UInt)VG_(strtoull10)(colon + 1, NULL);
	len = (SizeT)(colon - where - 1);
	if (len >= size)
		len = size - 1;
	VG_(memcpy)(path_out, where + 1, len);
	path_out[len] = '\0';
	return True;
}

/* Append "FUNCTION (FILE:LINE)" of one frame, FILE without its folder, or
 * "FUNCTION (in OBJECT)", to the list LIST of SIZE bytes, "; " between
 * frames. */
static void add_frame(HChar *list, SizeT size, const HChar *frame)
{
	HChar fn[512], path[1024];
	const HChar *rest, *base;
	SizeT used = VG_(strlen)(list);
	UInt line;
	split_frame(frame, fn, sizeof fn, &rest);
	if (frame_source(rest, path, sizeof path, &line)) {
		base = VG_(strrchr)(path, '/');
		VG_(snprintf)(list + used, size - used, "%s%s (%s:%u)", used > 0 ? "; " : "",
			      fn[0] ? fn : "???", base != NULL ? base + 1 : path, line);
	} else {
		VG_(snprintf)(list + used, size - used, "%s%s%s%s", used > 0 ? "; " : "",
			      fn[0] ? fn : "???", rest[0] ? " " : "", rest);
	}
}

/* Whether PATH is in the compiler's or the system's include folders:
 * code inlined from there (intrinsics such as _mm256_maskstore_epi32, the
 * C++ library's templates) is not a line the kernel author wrote, and
 * the line that names the access is the call it was inlined at. */
static Bool system_header(const HChar *path)
{
	static const HChar *const folders[] = {
		"/usr/include/", "/usr/local/include/", "/usr/lib/gcc/", "/usr/lib/gcc-cross/",
		"/usr/lib/llvm-", "/usr/lib/clang/",
	};
	UInt k;
	for (k = 0; k < sizeof folders / sizeof folders[0]; k++)
		if (VG_(strncmp)(path, folders[k], VG_(strlen)(folders[k])) == 0)
			return True;
	return False;
}

/* Once, before the first VG_(describe_IP): frames with their folders. */
static void full_paths(void)
{
	static Bool done;
	static const HChar *const whole = "";
	if (!done && VG_(clo_fullpath_after) != NULL)
		VG_(addToXA)(VG_(clo_fullpath_after), &whole);
	done = True;
}

/* Whether the frame text FRAME of VG_(describe_IP) is a line in a system
 * header. */
static Bool header_frame(const HChar *frame)
{
	HChar fn[512], path[1024];
	const HChar *rest;
	UInt line;
	split_frame(frame, fn, sizeof fn, &rest);
	return frame_source(rest, path, sizeof path, &line) && system_header(path);
}

/* The index of IP's first inlined frame, innermost 0, that is not in a
 * system header; 0 when all are. */
static UInt own_frame(DiEpoch ep, Addr ip)
{
	InlIPCursor *frames = VG_(new_IIPC)(ep, ip);
	UInt at = 0, found = 0;
	do {
		if (!header_frame(VG_(describe_IP)(ep, ip, frames))) {
			found = at;
			break;
		}
		at++;
	} while (frames != NULL && VG_(next_IIPC)(frames));
	if (frames != NULL)
		VG_(delete_IIPC)(frames);
	return found;
}

static void name_ip(Addr ip, struct names *n)
{
	DiEpoch ep = VG_(current_DiEpoch)();
	const HChar *file, *dir, *object;
	InlIPCursor *frames;
	const HChar *rest;
	DebugInfo *info;
	UInt first, at = 0;

	VG_(memset)(n, 0, sizeof *n);
	if (VG_(get_filename_linenum)(ep, ip, &file, &dir, &n->line)) {
		source_path(n->file, sizeof n->file, dir, file);
	} else {
		n->line = 0;
	}
	if (VG_(get_objname)(ep, ip, &object))
		copy(n->object, sizeof n->object, object);
	/* Where objdump and addr2line find the instruction in its file, which
	 * the running address is not for a library or a PIE. */
	info = VG_(find_DebugInfo)(ep, ip);
	if (info != NULL) {
		n->in_object = True;
		n->object_address = ip - VG_(DebugInfo_get_text_bias)(info);
	}
	/* The innermost frame names the function the instruction's line is
	 * in, inlined or not; each next one the call it was inlined at.  One
	 * in a system header gives way to the first call outside them, whose
	 * line the kernel's author wrote: the frames skipped are dropped. */
	full_paths();
	first = own_frame(ep, ip);
	frames = VG_(new_IIPC)(ep, ip);
	do {
		const HChar *frame = VG_(describe_IP)(ep, ip, frames);
		HChar path[1024];
		if (at == first) {
			split_frame(frame, n->function, sizeof n->function, &rest);
			if (first > 0 && frame_source(rest, path, sizeof path, &n->line))
				copy(n->file, sizeof n->file, path);
		} else if (at > first) {
			add_frame(n->inlined_into, sizeof n->inlined_into, frame);
		}
		at++;
	} while (frames != NULL && VG_(next_IIPC)(frames));
	if (frames != NULL)
		VG_(delete_IIPC)(frames);
}

/* The nearest caller of an access without source (dmo_where.h) that has
 * it, as "FUNCTION (FILE:LINE)", and when the call was inlined, the calls
 * it was inlined at, "; " between them, as inlined_into: frame 0 is the
 * access itself; Valgrind gives the outer frames as return addresses
 * less one, inside the call. */
static void put_called_from(struct out *o, const struct dmo_where_access *a)
{
	DiEpoch ep = VG_(current_DiEpoch)();
	HChar text[2048] = "";
	UInt k;

	full_paths();
	for (k = 1; k < a->n_callers; k++) {
		if (has_source(a->callers[k])) {
			/* Its inlined frames in system headers (std::copy's
			 * templates around a memmove) give way to the first call
			 * outside them, as in name_ip; all stay when all are. */
			UInt first = own_frame(ep, a->callers[k]), at = 0;
			InlIPCursor *frames = VG_(new_IIPC)(ep, a->callers[k]);
			do {
				const HChar *frame = VG_(describe_IP)(ep, a->callers[k], frames);
				if (at++ >= first)
					add_frame(text, sizeof text, frame);
			} while (frames != NULL && VG_(next_IIPC)(frames));
			if (frames != NULL)
				VG_(delete_IIPC)(frames);
			break;
		}
	}
	put_text(o, text);
}

/* The names of IP, ending the row after them unless CALLER (the pair's
 * access) still has its called_from column to add. */
static void put_names(struct out *o, Addr ip, const struct dmo_where_access *caller)
{
	struct names n;
	name_ip(ip, &n);
	put_text(o, n.function);
	put_char(o, ',');
	put_text(o, n.file);
	put_char(o, ',');
	if (n.line > 0)
		put_number(o, "%llu", n.line);
	put_char(o, ',');
	put_text(o, n.object);
	put_char(o, ',');
	if (n.in_object)
		put_number(o, "0x%llx", n.object_address);
	put_char(o, ',');
	put_text(o, n.inlined_into);
	put_char(o, ',');
	if (caller != NULL)
		put_called_from(o, caller);
	put_char(o, '\n');
}

static void put_site(struct out *o, const struct dmo_site *site)
{
	Int k;
	put(o, DMO_WHERE_ROLE_SITE ",");
	put_number(o, "0x%llx,,,,", site->ip);
	for (k = 0; k < DMO_COUNT_KINDS; k++)
		put_number(o, "%llu,", site->counts[k]);
	put_names(o, site->ip, NULL);
}

static void put_pair_access(struct out *o, const HChar *role, const struct dmo_where_access *a)
{
	static const HChar *const kinds[] = DMO_WHERE_KIND_NAMES;
	put(o, role);
	put_number(o, ",0x%llx,", a->site->ip);
	put(o, kinds[dmo_event_kind((UChar)a->flags)]);
	put_number(o, ",%llu", a->offset);
	put_number(o, ",%llu,,,,,", a->size);
	put_names(o, a->site->ip, a);
}

void dmo_where_close(const HChar *out_dir, UInt seq)
{
	static struct out o; /* 8 KiB: off the tool's small stack */
	HChar path[4096];
	const struct dmo_site *site;
	SysRes res;

	if (out_dir == NULL)
		return;
	VG_(snprintf)(path, sizeof path, "%s/" DMO_WHERE_FILE_FORMAT, out_dir, seq);
	res = VG_(open)(path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC | VKI_O_NOFOLLOW, 0644);
	if (sr_isError(res)) {
		VG_(umsg)("dmo: cannot create %s: %s; layer %u has no code locations\n", path,
			  dmo_create_error(res), seq);
		return;
	}
	o.fd = sr_Res(res);
	o.failed = False;
	o.used = 0;
	put(&o, DMO_WHERE_HEADER "\n");
	if (dmo_where.have_pair) {
		put_pair_access(&o, DMO_WHERE_ROLE_FIRST, &dmo_where.pair[0]);
		put_pair_access(&o, DMO_WHERE_ROLE_SECOND, &dmo_where.pair[1]);
	}
	for (site = dmo_where.touched; site != NULL; site = site->next_touched)
		put_site(&o, site);
	flush(&o);
	VG_(close)(o.fd);
	/* Half a file would read as damaged: none says plainly that the
	 * layer has no code locations. */
	if (o.failed) {
		VG_(unlink)(path);
		VG_(umsg)("dmo: cannot write %s (disk full?); layer %u has no code locations\n",
			  path, seq);
	}
}
