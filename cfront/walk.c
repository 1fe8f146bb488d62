/* The statements of a scop: loops, conditions, declarations and
 * assignments, each turned into its part of the polyhedral model.
 *
 * The walk keeps the domain of the current position (the enclosing loops'
 * bounds and the if conditions, as one isl set over the iterators) and its
 * place in every enclosing block; an assignment becomes a statement with
 * a copy of that domain, the place as its schedule, and its array
 * accesses as relations from its instances to array elements.
 */
#include <stdio.h>
#include <string.h>

#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/space.h>
#include <isl/val.h>

#include "cfront/internal.h"

static dse_stat walk_stmt(struct cf_walk *w, CXCursor c);
static dse_stat value(struct cf_walk *w, CXCursor c);

enum cf_type cf__element(CXType t, int *rank, int64_t *size, char *name,
	size_t name_size)
{
	CXString s;
	int n = 0;

	for (;;) {
		enum CXTypeKind k = t.kind;
		CXType canon = clang_getCanonicalType(t);

		if ((k == CXType_Typedef || k == CXType_Elaborated) &&
		    (canon.kind == CXType_ConstantArray ||
		     canon.kind == CXType_IncompleteArray ||
		     canon.kind == CXType_VariableArray ||
		     canon.kind == CXType_Pointer))
			t = canon;
		k = t.kind;
		if (k == CXType_ConstantArray || k == CXType_IncompleteArray ||
		    k == CXType_VariableArray ||
		    k == CXType_DependentSizedArray) {
			if (n < POLY_MAX_ARRAY_DIMS)
				size[n] = k == CXType_ConstantArray ?
					(int64_t) clang_getArraySize(t) : -1;
			n++;
			t = clang_getArrayElementType(t);
		} else if (k == CXType_Pointer) {
			if (n < POLY_MAX_ARRAY_DIMS)
				size[n] = -1;
			n++;
			t = clang_getPointeeType(t);
		} else {
			break;
		}
	}
	*rank = n;
	s = clang_getTypeSpelling(clang_getUnqualifiedType(t));
	snprintf(name, name_size, "%s", clang_getCString(s));
	clang_disposeString(s);
	switch (clang_getCanonicalType(t).kind) {
	case CXType_Float: return CF_T_FLOAT;
	case CXType_Float16: case CXType_Half: return CF_T_HALF;
	case CXType_Short: case CXType_UShort: return CF_T_SHORT;
	case CXType_Char_S: case CXType_Char_U: case CXType_SChar:
	case CXType_UChar: return CF_T_CHAR;
	case CXType_Int: case CXType_UInt: return CF_T_INT;
	case CXType_Double: return CF_T_DOUBLE;
	default: return CF_T_OTHER;
	}
}

/* The array declared by "decl", registered on first use; NULL (with a
 * refusal at c) when the table is full.  "local" marks a declaration
 * inside the scop.
 */
static struct cf_array *array_of(struct cf_walk *w, CXCursor c,
	CXCursor decl, int local)
{
	struct cf_array *a;

	for (int i = 0; i < w->n_arrays; i++)
		if (clang_equalCursors(w->array[i].decl, decl))
			return &w->array[i];
	if (w->n_arrays == CF_MAX_ARRAYS) {
		cf__refuse(w, c, "the scop uses more than %d arrays",
			CF_MAX_ARRAYS);
		return NULL;
	}
	a = &w->array[w->n_arrays];
	memset(a, 0, sizeof(*a));
	cf__name(decl, a->name, sizeof(a->name));
	if (strlen(a->name) >= POLY_NAME_LEN - 1) {
		cf__refuse(w, c, "the array name '%s' is longer than %d "
			"characters", a->name, POLY_NAME_LEN - 2);
		return NULL;
	}
	a->decl = decl;
	a->local = local;
	a->type = cf__element(clang_getCursorType(decl), &a->rank, a->size,
		a->type_name, sizeof(a->type_name));
	cf__position(decl, &a->line, &a->col);
	w->n_arrays++;
	return a;
}

/* The relation from the current statement's instances to the element of
 * "a" that subscripts pa[] (NULL for a may-dimension: any element of the
 * dimension's declared size) name.  Takes pa[].
 */
static __isl_give isl_map *relation(struct cf_walk *w, const struct cf_array *a,
	isl_pw_aff **pa)
{
	isl_map *map = NULL;

	for (int d = 0; d < a->rank; d++) {
		isl_map *one;

		if (pa[d]) {
			one = isl_map_from_pw_aff(pa[d]);
		} else {
			isl_space *sp = isl_space_from_domain(
				isl_set_get_space(w->dom));

			sp = isl_space_add_dims(sp, isl_dim_out, 1);
			one = isl_map_universe(sp);
			one = isl_map_lower_bound_si(one, isl_dim_out, 0, 0);
			one = isl_map_upper_bound_val(one, isl_dim_out, 0,
				isl_val_int_from_si(w->ctx,
					(long) (a->size[d] - 1)));
		}
		pa[d] = NULL;
		map = map ? isl_map_flat_range_product(map, one) : one;
	}
	map = isl_map_set_tuple_name(map, isl_dim_out, a->name);
	map = isl_map_set_tuple_name(map, isl_dim_in, w->cur->name);
	return map;
}

/* Reads subscript d of an access of "a": an affine function, or NULL in
 * *pa for a subscript that reads memory (an index array, as an edge list
 * has), which becomes a may-access over the declared size of the
 * dimension; the index array's own elements are read too.
 */
static dse_stat subscript(struct cf_walk *w, const struct cf_array *a,
	CXCursor idx, int d, isl_pw_aff **pa)
{
	char what[96];
	char text[96];
	dse_stat st;

	*pa = NULL;
	if (cf__reads_memory(idx)) {
		if (a->size[d] <= 0) {
			cf__text(w, idx, text, sizeof(text));
			return cf__refuse(w, idx, "subscript %d of %s, '%s', "
				"reads memory, so any element of that dimension "
				"may be accessed, but %s does not declare its "
				"size; declare it as %s[%s]...", d + 1, a->name,
				text, a->name, a->name, d == 0 ? "N" : "...][N");
		}
		w->in_subscript++;
		st = value(w, idx);
		w->in_subscript--;
		return st;
	}
	snprintf(what, sizeof(what), "subscript %d of %s", d + 1, a->name);
	*pa = cf__aff(w, idx, what);
	return *pa ? dse_stat_ok : dse_stat_error;
}

/* Records an access of the current statement to the array element that
 * c (an ArraySubscriptExpr chain) names.
 */
static dse_stat access(struct cf_walk *w, CXCursor c, int write)
{
	CXCursor idx[POLY_MAX_ARRAY_DIMS + 1], ch[2];
	isl_pw_aff *pa[POLY_MAX_ARRAY_DIMS] = { NULL };
	struct cf_array *a;
	isl_map *map;
	dse_stat st = dse_stat_ok;
	int n = 0;

	for (c = cf__peel(c); clang_getCursorKind(c) ==
	    CXCursor_ArraySubscriptExpr; c = cf__peel(ch[0])) {
		if (cf__children(c, ch, 2) != 2 || n > POLY_MAX_ARRAY_DIMS)
			return cf__refuse(w, c, "an access with more than %d "
				"subscripts", POLY_MAX_ARRAY_DIMS);
		idx[n++] = ch[1];
	}
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return cf__refuse(w, c, "only the elements of a named array "
			"can be accessed (A[i][j]); pointer arithmetic, "
			"dereferences and structure members are not read");
	a = array_of(w, c, clang_getCursorReferenced(c), 0);
	if (!a)
		return dse_stat_error;
	if (a->rank != n)
		return cf__refuse(w, c, "'%s' has %d dimension%s but is "
			"accessed with %d subscript%s; an access names one "
			"element", a->name, a->rank, a->rank == 1 ? "" : "s", n,
			n == 1 ? "" : "s");
	for (int d = 0; d < n && st == dse_stat_ok; d++)
		st = subscript(w, a, idx[n - 1 - d], d, &pa[d]);
	if (st != dse_stat_ok) {
		for (int d = 0; d < n; d++)
			isl_pw_aff_free(pa[d]);
		return st;
	}
	map = relation(w, a, pa);
	if (write)
		w->cur->writes = isl_union_map_add_map(w->cur->writes, map);
	else
		w->cur->reads = isl_union_map_add_map(w->cur->reads, map);
	a->read |= !write;
	a->written |= write;
	a->data |= !w->in_subscript;
	if (!(write ? w->cur->writes : w->cur->reads))
		return cf__isl_error(w, "building an access relation");
	return dse_stat_ok;
}

/* A scalar on the right-hand side: a constant of the kernel (alpha, a
 * loop iterator's value), never an array to move.
 */
static dse_stat scalar(struct cf_walk *w, CXCursor c)
{
	CXCursor decl = clang_getCursorReferenced(c);
	enum CXCursorKind k = clang_getCursorKind(decl);
	int rank = 0;
	int64_t size[POLY_MAX_ARRAY_DIMS];
	char type[48], name[POLY_NAME_LEN];

	if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
		return dse_stat_ok;
	cf__element(clang_getCursorType(decl), &rank, size, type, sizeof(type));
	cf__name(decl, name, sizeof(name));
	if (rank > 0)
		return cf__refuse(w, c, "the array '%s' is used without "
			"subscripts; an expression reads one element, %s[...]",
			name, name);
	return dse_stat_ok;
}

/* The parts of an expression that count as an operation of the
 * statement: arithmetic, comparison and logic operators and calls (such
 * as sqrt); signs, casts and parentheses cost nothing.
 */
static dse_stat binary_value(struct cf_walk *w, CXCursor c)
{
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
	CXCursor ch[2];

	if (op >= CXBinaryOperator_Assign || op == CXBinaryOperator_Invalid)
		return cf__refuse(w, c, "an assignment or a comma inside an "
			"expression: write one assignment per statement");
	if (cf__children(c, ch, 2) != 2)
		return cf__refuse(w, c, "an incomplete expression");
	w->cur->ops++;
	if (value(w, ch[0]) != dse_stat_ok)
		return dse_stat_error;
	return value(w, ch[1]);
}

static dse_stat unary_value(struct cf_walk *w, CXCursor c)
{
	enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
	CXCursor ch;

	if (op == CXUnaryOperator_Deref)
		return cf__refuse(w, c, "a pointer dereference: write the "
			"access as an array element, A[i]");
	if (op != CXUnaryOperator_Minus && op != CXUnaryOperator_Plus &&
	    op != CXUnaryOperator_Not && op != CXUnaryOperator_LNot)
		return cf__refuse(w, c, "an increment, a decrement or an "
			"address inside an expression: write one assignment "
			"per statement (A[i] += 1)");
	if (cf__children(c, &ch, 1) != 1)
		return cf__refuse(w, c, "an incomplete expression");
	w->cur->ops += op == CXUnaryOperator_Not || op == CXUnaryOperator_LNot;
	return value(w, ch);
}

static dse_stat children_values(struct cf_walk *w, CXCursor c, int from)
{
	CXCursor ch[16];
	int n = cf__children(c, ch, 16);

	if (n > 16)
		return cf__refuse(w, c, "a call with more than 15 arguments");
	for (int i = from; i < n; i++)
		if (value(w, ch[i]) != dse_stat_ok)
			return dse_stat_error;
	return dse_stat_ok;
}

/* Walks the value expression c, recording its reads and counting its
 * operations.
 */
static dse_stat value(struct cf_walk *w, CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	dse_stat st;

	if (++w->expr_depth > CF_MAX_EXPR_DEPTH) {
		w->expr_depth--;
		return cf__refuse(w, c, "an expression nested too deeply");
	}
	switch (k) {
	case CXCursor_ArraySubscriptExpr: st = access(w, c, 0); break;
	case CXCursor_DeclRefExpr: st = scalar(w, c); break;
	case CXCursor_BinaryOperator: st = binary_value(w, c); break;
	case CXCursor_UnaryOperator: st = unary_value(w, c); break;
	case CXCursor_IntegerLiteral: case CXCursor_FloatingLiteral:
	case CXCursor_CharacterLiteral: case CXCursor_TypeRef:
		st = dse_stat_ok;
		break;
	case CXCursor_ConditionalOperator:
		w->cur->ops++;
		st = children_values(w, c, 0);
		break;
	case CXCursor_CallExpr:
		w->cur->ops++;
		st = children_values(w, c, 1);
		break;
	case CXCursor_ParenExpr: case CXCursor_UnexposedExpr:
	case CXCursor_CStyleCastExpr:
		st = children_values(w, c, 0);
		break;
	case CXCursor_CompoundAssignOperator:
		st = cf__refuse(w, c, "an assignment inside an expression: "
			"write one assignment per statement");
		break;
	default:
		st = cf__refuse(w, c, "this expression is not one dse reads "
			"(array elements, scalars, numbers, arithmetic and "
			"calls of pure functions such as sqrt)");
	}
	w->expr_depth--;
	return st;
}

/* A new statement at the current place, with the current domain. */
static struct cf_stmt *new_stmt(struct cf_walk *w, CXCursor c)
{
	struct cf_stmt *s;
	isl_space *params;

	if (w->n_stmts == POLY_MAX_STMTS) {
		cf__refuse(w, c, "the scop has more than %d statements",
			POLY_MAX_STMTS);
		return NULL;
	}
	s = &w->stmt[w->n_stmts++];
	/* Below POLY_MAX_STMTS, so the short's range holds it. */
	snprintf(s->name, sizeof(s->name), "S%hu",
		(unsigned short) (w->n_stmts - 1));
	s->depth = w->depth;
	for (int d = 0; d < w->depth; d++)
		s->step[d] = w->loop[d].step;
	w->pos[w->depth] = w->counter[w->depth]++;
	memcpy(s->pos, w->pos, sizeof(s->pos));
	s->domain = isl_set_set_tuple_name(isl_set_copy(w->dom), s->name);
	params = isl_set_get_space(w->dom);
	params = isl_space_params(params);
	s->reads = isl_union_map_empty(isl_space_copy(params));
	s->writes = isl_union_map_empty(params);
	cf__position(c, &s->line, &s->col);
	cf__text(w, c, s->text, sizeof(s->text));
	if (!s->domain || !s->reads || !s->writes) {
		cf__isl_error(w, "starting a statement");
		return NULL;
	}
	return s;
}

/* An assignment "A[...] op= expression": one statement. */
static dse_stat assignment(struct cf_walk *w, CXCursor c)
{
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
	CXCursor ch[2], lhs;
	char name[POLY_NAME_LEN];

	if (op != CXBinaryOperator_Assign && op != CXBinaryOperator_AddAssign &&
	    op != CXBinaryOperator_SubAssign &&
	    op != CXBinaryOperator_MulAssign &&
	    op != CXBinaryOperator_DivAssign)
		return cf__refuse(w, c, "a statement is an assignment with "
			"=, +=, -=, *= or /=");
	if (cf__children(c, ch, 2) != 2)
		return cf__refuse(w, c, "an incomplete assignment");
	lhs = cf__peel(ch[0]);
	if (clang_getCursorKind(lhs) == CXCursor_DeclRefExpr) {
		CXCursor decl = clang_getCursorReferenced(lhs);

		cf__name(decl, name, sizeof(name));
		if (cf__loop_of(w, decl) >= 0)
			return cf__refuse(w, lhs, "the loop iterator '%s' is "
				"assigned inside its loop; a loop's iterator "
				"moves only in its increment", name);
		return cf__refuse(w, lhs, "the scalar '%s' is assigned inside "
			"the scop; a scalar written by every iteration "
			"carries a dependence along every loop: make it an "
			"array indexed by the loops (%s[i][j])", name, name);
	}
	w->cur = new_stmt(w, c);
	if (!w->cur || access(w, ch[0], 1) != dse_stat_ok)
		return dse_stat_error;
	if (op != CXBinaryOperator_Assign) {
		w->cur->ops++;
		if (access(w, ch[0], 0) != dse_stat_ok)
			return dse_stat_error;
	}
	return value(w, ch[1]);
}

/* Arrays declared inside the scop: on-chip temporaries. */
static dse_stat declaration(struct cf_walk *w, CXCursor c)
{
	CXCursor ch[8];
	int n = cf__children(c, ch, 8);

	for (int i = 0; i < n && i < 8; i++) {
		struct cf_array *a;
		char name[POLY_NAME_LEN];

		if (clang_getCursorKind(ch[i]) != CXCursor_VarDecl)
			return cf__refuse(w, ch[i], "only variables are "
				"declared inside a scop");
		cf__name(ch[i], name, sizeof(name));
		a = array_of(w, ch[i], ch[i], 1);
		if (!a)
			return dse_stat_error;
		if (a->rank == 0)
			return cf__refuse(w, ch[i], "the scalar '%s' is "
				"declared inside the scop; a scalar written by "
				"every iteration carries a dependence along "
				"every loop: declare an array indexed by the "
				"loops (%s[N][M]), or declare a constant "
				"before the scop", name, name);
		if (!clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(
		    ch[i])))
			return cf__refuse(w, ch[i], "the temporary array '%s' "
				"has an initialiser; assign its elements in "
				"the loops", name);
		for (int d = 0; d < a->rank && d < POLY_MAX_ARRAY_DIMS; d++)
			if (a->size[d] <= 0)
				return cf__refuse(w, ch[i], "the temporary "
					"array '%s' needs a constant size in "
					"every dimension: it is held on chip",
					name);
	}
	return dse_stat_ok;
}

/* The iterator and the initial value of a loop's "int i = lb" or
 * "i = lb".
 */
static dse_stat loop_init(struct cf_walk *w, CXCursor c, CXCursor *var,
	CXCursor *init)
{
	CXCursor ch[2];

	if (clang_getCursorKind(c) == CXCursor_DeclStmt) {
		if (cf__children(c, ch, 2) != 1 ||
		    clang_getCursorKind(ch[0]) != CXCursor_VarDecl)
			return cf__refuse(w, c, "a loop declares one iterator "
				"(for (int i = lb; ...))");
		*var = ch[0];
		*init = clang_Cursor_getVarDeclInitializer(ch[0]);
		if (clang_Cursor_isNull(*init))
			return cf__refuse(w, c, "the loop iterator has no "
				"initial value");
		return dse_stat_ok;
	}
	if (clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign &&
	    cf__children(c, ch, 2) == 2 &&
	    clang_getCursorKind(cf__peel(ch[0])) == CXCursor_DeclRefExpr) {
		*var = clang_getCursorReferenced(cf__peel(ch[0]));
		*init = ch[1];
		return dse_stat_ok;
	}
	return cf__refuse(w, c, "a for loop starts by setting its iterator "
		"(i = lb or int i = lb)");
}

/* The step of a loop's increment: i++, ++i, i--, i += c, i -= c or
 * i = i + c; only unit steps are read.  The iterator is the innermost
 * loop of w.
 */
static dse_stat loop_step(struct cf_walk *w, CXCursor c, int *step)
{
	const struct cf_loop *l = &w->loop[w->depth - 1];
	enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind(c);
	enum CXBinaryOperatorKind b = clang_getCursorBinaryOperatorKind(c);
	CXCursor ch[2];
	int n = cf__children(c, ch, 2);
	int64_t v = 0;
	isl_pw_aff *pa = NULL;

	if (n < 1 || clang_getCursorKind(cf__peel(ch[0])) !=
	    CXCursor_DeclRefExpr || !clang_equalCursors(l->var,
	    clang_getCursorReferenced(cf__peel(ch[0]))))
		return cf__refuse(w, c, "the increment of loop '%s' must "
			"change its iterator", l->name);
	if (u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PreInc ||
	    u == CXUnaryOperator_PostDec || u == CXUnaryOperator_PreDec) {
		*step = u == CXUnaryOperator_PostInc ||
			u == CXUnaryOperator_PreInc ? 1 : -1;
		return dse_stat_ok;
	}
	if (n == 2 && (b == CXBinaryOperator_AddAssign ||
	    b == CXBinaryOperator_SubAssign || b == CXBinaryOperator_Assign)) {
		pa = cf__aff(w, ch[1], "the increment of the loop");
		if (pa && b == CXBinaryOperator_Assign)
			pa = isl_pw_aff_sub(pa, isl_pw_aff_var_on_domain(
				isl_local_space_from_space(isl_set_get_space(
				w->dom)), isl_dim_set, (unsigned) w->depth - 1));
		if (pa && b == CXBinaryOperator_SubAssign)
			pa = isl_pw_aff_neg(pa);
	}
	if (!pa)
		return w->failed ? dse_stat_error : cf__refuse(w, c, "the "
			"increment of loop '%s' is not one dse reads (i++, "
			"i--, i += 1)", l->name);
	if (!cf__cst_value(pa, &v))
		v = 0;
	isl_pw_aff_free(pa);
	if (v == 1 || v == -1) {
		*step = (int) v;
		return dse_stat_ok;
	}
	return cf__refuse(w, c, "loop '%s' does not step by 1 or -1; count "
		"its steps instead (for (t = 0; t < N / 2; t++), with 2 * t "
		"in the subscripts)", l->name);
}

/* Enters a loop over "var": one more dimension in the domain. */
static dse_stat push_loop(struct cf_walk *w, CXCursor c, CXCursor var)
{
	struct cf_loop *l = &w->loop[w->depth];
	isl_id *id;

	cf__name(var, l->name, sizeof(l->name));
	if (w->depth == POLY_MAX_LOOPS)
		return cf__refuse(w, c, "loops are nested deeper than %d",
			POLY_MAX_LOOPS);
	if (cf__loop_of(w, var) >= 0)
		return cf__refuse(w, c, "this loop reuses the iterator '%s' "
			"of an enclosing loop", l->name);
	for (int d = 0; d < w->depth; d++)
		if (!strcmp(w->loop[d].name, l->name))
			return cf__refuse(w, c, "two nested loops are both "
				"called '%s'; give each its own name",
				l->name);
	if (strlen(l->name) >= POLY_NAME_LEN - 1)
		return cf__refuse(w, c, "the iterator name '%s' is too long",
			l->name);
	l->var = var;
	l->step = 1;
	w->pos[w->depth] = w->counter[w->depth]++;
	w->counter[w->depth + 1] = 0;
	id = isl_id_alloc(w->ctx, l->name, NULL);
	w->dom = isl_set_add_dims(w->dom, isl_dim_set, 1);
	w->dom = isl_set_set_dim_id(w->dom, isl_dim_set,
		(unsigned) w->depth, id);
	w->depth++;
	return w->dom ? dse_stat_ok : cf__isl_error(w, "entering a loop");
}

/* The bounds of the innermost loop: lb from "init", the step, and the
 * condition, intersected into the domain.
 */
static dse_stat bound_loop(struct cf_walk *w, CXCursor init, CXCursor cond,
	CXCursor inc)
{
	struct cf_loop *l = &w->loop[w->depth - 1];
	char what[96];
	isl_pw_aff *lb, *it;
	isl_set *in, *bound;

	snprintf(what, sizeof(what), "the lower bound of loop '%s'", l->name);
	lb = cf__aff(w, init, what);
	if (!lb || loop_step(w, inc, &l->step) != dse_stat_ok) {
		isl_pw_aff_free(lb);
		return dse_stat_error;
	}
	snprintf(what, sizeof(what), "the condition of loop '%s'", l->name);
	in = cf__cond(w, cond, what);
	if (!in) {
		isl_pw_aff_free(lb);
		return dse_stat_error;
	}
	it = isl_pw_aff_var_on_domain(isl_local_space_from_space(
		isl_set_get_space(w->dom)), isl_dim_set,
		(unsigned) w->depth - 1);
	bound = l->step > 0 ? isl_pw_aff_ge_set(it, lb) :
		isl_pw_aff_le_set(it, lb);
	w->dom = isl_set_intersect(w->dom, isl_set_intersect(bound, in));
	return w->dom ? dse_stat_ok : cf__isl_error(w, "bounding a loop");
}

static dse_stat for_loop(struct cf_walk *w, CXCursor c)
{
	CXCursor ch[4], var, init;
	isl_set *outer;
	int depth = w->depth;
	dse_stat st;

	if (cf__children(c, ch, 4) != 4)
		return cf__refuse(w, c, "a for loop needs an initialisation, a "
			"condition and an increment (for (i = lb; i < ub; "
			"i++))");
	if (loop_init(w, ch[0], &var, &init) != dse_stat_ok)
		return dse_stat_error;
	outer = isl_set_copy(w->dom);
	st = push_loop(w, c, var);
	if (st == dse_stat_ok)
		st = bound_loop(w, init, ch[1], ch[2]);
	if (st == dse_stat_ok)
		st = walk_stmt(w, ch[3]);
	w->depth = depth;
	isl_set_free(w->dom);
	w->dom = outer;
	return st;
}

static dse_stat if_stmt(struct cf_walk *w, CXCursor c)
{
	CXCursor ch[3];
	int n = cf__children(c, ch, 3);
	isl_set *outer, *cond;
	dse_stat st;

	if (n != 2 && n != 3)
		return cf__refuse(w, c, "an if statement with a condition and "
			"one or two branches");
	cond = cf__cond(w, ch[0], "the condition of this if");
	if (!cond)
		return dse_stat_error;
	outer = w->dom;
	w->dom = isl_set_intersect(isl_set_copy(outer), isl_set_copy(cond));
	st = walk_stmt(w, ch[1]);
	isl_set_free(w->dom);
	w->dom = NULL;
	if (st == dse_stat_ok && n == 3) {
		w->dom = isl_set_subtract(isl_set_copy(outer),
			isl_set_copy(cond));
		st = walk_stmt(w, ch[2]);
		isl_set_free(w->dom);
	}
	isl_set_free(cond);
	w->dom = outer;
	return st;
}

static dse_stat block(struct cf_walk *w, CXCursor c)
{
	CXCursor ch[256];
	int n = cf__children(c, ch, 256);
	dse_stat st = dse_stat_ok;

	if (n > 256)
		return cf__refuse(w, c, "more than 256 statements in one "
			"block");
	if (++w->nest > CF_MAX_NEST) {
		w->nest--;
		return cf__refuse(w, c, "blocks are nested too deeply");
	}
	for (int i = 0; i < n && st == dse_stat_ok; i++)
		st = walk_stmt(w, ch[i]);
	w->nest--;
	return st;
}

/* What each statement kind outside the subset is refused for. */
static dse_stat refuse_kind(struct cf_walk *w, CXCursor c)
{
	switch (clang_getCursorKind(c)) {
	case CXCursor_WhileStmt: case CXCursor_DoStmt:
		return cf__refuse(w, c, "a while or do loop has no affine "
			"bounds: write it as a for loop (for (i = lb; i < ub; "
			"i++))");
	case CXCursor_SwitchStmt: case CXCursor_GotoStmt:
	case CXCursor_BreakStmt: case CXCursor_ContinueStmt:
	case CXCursor_ReturnStmt: case CXCursor_LabelStmt:
		return cf__refuse(w, c, "a jump leaves static control flow: "
			"a scop runs every iteration its loop bounds and if "
			"conditions give");
	case CXCursor_CallExpr:
		return cf__refuse(w, c, "a function call as a statement has "
			"effects dse cannot see; write its work as "
			"assignments");
	case CXCursor_UnaryOperator:
		return cf__refuse(w, c, "an increment as a statement: write "
			"it as an assignment (A[i] += 1)");
	default:
		return cf__refuse(w, c, "this statement is outside the subset "
			"dse reads (for loops, if statements, blocks, array "
			"declarations and assignments)");
	}
}

static dse_stat walk_stmt(struct cf_walk *w, CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);

	if (w->failed)
		return dse_stat_error;
	switch (k) {
	case CXCursor_CompoundStmt: return block(w, c);
	case CXCursor_ForStmt: return for_loop(w, c);
	case CXCursor_IfStmt: return if_stmt(w, c);
	case CXCursor_DeclStmt: return declaration(w, c);
	case CXCursor_NullStmt: return dse_stat_ok;
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator: return assignment(w, c);
	default: return refuse_kind(w, c);
	}
}

dse_stat cf__walk_scop(struct cf_walk *w, const CXCursor *stmts, int n)
{
	dse_stat st = dse_stat_ok;

	w->dom = isl_set_universe(isl_space_set_alloc(w->ctx, 0, 0));
	if (!w->dom)
		return cf__isl_error(w, "starting the scop");
	for (int i = 0; i < n && st == dse_stat_ok; i++)
		st = walk_stmt(w, stmts[i]);
	if (st == dse_stat_ok && w->n_stmts == 0)
		return cf__refuse(w, stmts[0], "the scop assigns no array "
			"element: there is nothing to compute");
	return st;
}
