/* C expressions as isl affine functions and sets.
 *
 * An affine expression adds loop iterators and parameters multiplied by
 * integer constants, and may divide by a positive constant (C's
 * truncating "/" and "%", which isl models exactly) or choose between two
 * affine values on an affine condition (the min and max macros).  A
 * parameter is an object-like macro (N), a const integer with a constant
 * value, or an integer variable whose value the caller gave; its name
 * stays symbolic in the model, as AutoSA and pet keep them.  Everything
 * else is refused, saying what the expression does that is not affine.
 */
#include <stdio.h>
#include <string.h>

#include <isl/id.h>
#include <isl/local_space.h>
#include <isl/space.h>
#include <isl/val.h>

#include "cfront/internal.h"

int cf__loop_of(struct cf_walk *w, CXCursor decl)
{
	for (int i = 0; i < w->depth; i++)
		if (clang_equalCursors(w->loop[i].var, decl))
			return i;
	return -1;
}

int cf__param(struct cf_walk *w, CXCursor c, const char *name,
	int64_t value, int macro)
{
	for (int i = 0; i < w->n_params; i++) {
		if (strcmp(w->param[i].name, name))
			continue;
		if (w->param[i].value != value) {
			cf__refuse(w, c, "'%s' stands for %lld here and for "
				"%lld before; a parameter has one value in a "
				"scop", name, (long long) value,
				(long long) w->param[i].value);
			return -1;
		}
		return i;
	}
	if (w->n_params == POLY_MAX_PARAMS || strlen(name) >= POLY_NAME_LEN) {
		cf__refuse(w, c, "'%s' would be parameter %d; at most %d "
			"parameters of at most %d characters are supported",
			name, w->n_params + 1, POLY_MAX_PARAMS,
			POLY_NAME_LEN - 1);
		return -1;
	}
	strcpy(w->param[w->n_params].name, name);
	w->param[w->n_params].value = value;
	w->param[w->n_params].macro = macro;
	return w->n_params++;
}

/* The integer value clang computes for c; -1 when it is no integer
 * constant.
 */
static int eval_int(CXCursor c, int64_t *out)
{
	CXEvalResult r = clang_Cursor_Evaluate(c);
	int ok = r && clang_EvalResult_getKind(r) == CXEval_Int;

	if (ok && clang_EvalResult_isUnsignedInt(r)) {
		unsigned long long u = clang_EvalResult_getAsUnsigned(r);

		ok = u <= (unsigned long long) INT64_MAX;
		*out = (int64_t) u;
	} else if (ok) {
		*out = (int64_t) clang_EvalResult_getAsLongLong(r);
	}
	if (r)
		clang_EvalResult_dispose(r);
	return ok ? 0 : -1;
}

static __isl_give isl_space *space_of(struct cf_walk *w)
{
	return isl_set_get_space(w->dom);
}

static __isl_give isl_pw_aff *constant(struct cf_walk *w, int64_t v)
{
	isl_val *val = isl_val_int_from_si(w->ctx, (long) v);

	return isl_pw_aff_val_on_domain(isl_set_universe(space_of(w)), val);
}

static __isl_give isl_pw_aff *iterator(struct cf_walk *w, int d)
{
	return isl_pw_aff_var_on_domain(isl_local_space_from_space(
		space_of(w)), isl_dim_set, (unsigned) d);
}

static __isl_give isl_pw_aff *parameter(struct cf_walk *w, const char *name)
{
	return isl_pw_aff_param_on_domain_id(isl_set_universe(space_of(w)),
		isl_id_alloc(w->ctx, name, NULL));
}

/* Refuses expression c as not affine, quoting it, with "why". */
static __isl_give isl_pw_aff *not_affine(struct cf_walk *w, CXCursor c,
	const char *why)
{
	char text[128];

	cf__text(w, c, text, sizeof(text));
	cf__refuse(w, c, "%s is not affine: '%s' %s", w->what, text, why);
	return NULL;
}

static int is_integer(CXType t)
{
	switch (clang_getCanonicalType(t).kind) {
	case CXType_Bool: case CXType_Char_U: case CXType_UChar:
	case CXType_UShort: case CXType_UInt: case CXType_ULong:
	case CXType_ULongLong: case CXType_Char_S: case CXType_SChar:
	case CXType_Short: case CXType_Int: case CXType_Long:
	case CXType_LongLong: case CXType_Enum:
		return 1;
	default:
		return 0;
	}
}

/* A variable in an affine expression: a loop iterator, a const integer
 * with a value, or an integer variable the caller gave a value.
 */
static __isl_give isl_pw_aff *variable(struct cf_walk *w, CXCursor c)
{
	CXCursor decl = clang_getCursorReferenced(c);
	enum CXCursorKind k = clang_getCursorKind(decl);
	const cfront_opts *o = w->opts;
	char name[POLY_NAME_LEN * 2];
	int64_t v;
	int loop = cf__loop_of(w, decl);

	if (loop >= 0)
		return iterator(w, loop);
	if (k == CXCursor_EnumConstantDecl && eval_int(c, &v) == 0)
		return constant(w, v);
	cf__name(decl, name, sizeof(name));
	if ((k != CXCursor_VarDecl && k != CXCursor_ParmDecl) ||
	    !is_integer(clang_getCursorType(decl)))
		return not_affine(w, c, "is not an integer variable");
	if (clang_isConstQualifiedType(clang_getCursorType(decl)) &&
	    eval_int(c, &v) == 0)
		return v >= 1 && cf__param(w, c, name, v, 0) >= 0 ?
			parameter(w, name) : v >= 1 ? NULL : constant(w, v);
	for (int i = 0; i < o->n_params; i++)
		if (o->param_name[i] && !strcmp(o->param_name[i], name))
			return cf__param(w, c, name, o->param_value[i], 0) >= 0 ?
				parameter(w, name) : NULL;
	cf__refuse(w, c, "%s is not affine: '%s' is neither a loop iterator "
		"of the scop nor a constant; make it a macro or a const int, "
		"or give its value with params = %s=<value> in [kernel]",
		w->what, name, name);
	return NULL;
}

/* The last child of c that is an expression (the operand of a cast). */
static int operand(CXCursor c, CXCursor *out)
{
	CXCursor ch[4];
	int n = cf__children(c, ch, 4);

	for (int i = (n < 4 ? n : 4) - 1; i >= 0; i--)
		if (clang_isExpression(clang_getCursorKind(ch[i]))) {
			*out = ch[i];
			return 0;
		}
	return -1;
}

int cf__cst_value(__isl_keep isl_pw_aff *pa, int64_t *v)
{
	isl_aff *aff;
	isl_val *val = NULL;
	int ok;

	if (isl_pw_aff_isa_aff(pa) != isl_bool_true)
		return 0;
	aff = isl_pw_aff_as_aff(isl_pw_aff_copy(pa));
	if (isl_aff_is_cst(aff) == isl_bool_true)
		val = isl_aff_get_constant_val(aff);
	isl_aff_free(aff);
	ok = val && isl_val_is_int(val) == isl_bool_true;
	if (ok)
		*v = isl_val_get_num_si(val);
	isl_val_free(val);
	return ok;
}

static __isl_give isl_pw_aff *aff_expr(struct cf_walk *w, CXCursor c);

/* a * b, a / b or a % b: affine only with a constant factor or a
 * positive constant divisor.
 */
static __isl_give isl_pw_aff *product(struct cf_walk *w, CXCursor c,
	enum CXBinaryOperatorKind op, __isl_take isl_pw_aff *a,
	__isl_take isl_pw_aff *b)
{
	int64_t v = 0;
	int a_cst = isl_pw_aff_is_cst(a) == isl_bool_true;
	int b_cst = isl_pw_aff_is_cst(b) == isl_bool_true;

	if (op == CXBinaryOperator_Mul && (a_cst || b_cst))
		return isl_pw_aff_mul(a, b);
	if (op != CXBinaryOperator_Mul && cf__cst_value(b, &v) && v > 0)
		return op == CXBinaryOperator_Div ? isl_pw_aff_tdiv_q(a, b) :
			isl_pw_aff_tdiv_r(a, b);
	isl_pw_aff_free(a);
	isl_pw_aff_free(b);
	if (op == CXBinaryOperator_Mul)
		return not_affine(w, c, "multiplies two values that both vary "
			"(an affine expression multiplies loop iterators and "
			"parameters by constants only; for a flattened "
			"A[i * N + j], declare A[M][N] and write A[i][j])");
	return not_affine(w, c, "divides by something other than a "
		"positive constant");
}

static __isl_give isl_pw_aff *binary(struct cf_walk *w, CXCursor c)
{
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
	CXCursor ch[2];
	isl_pw_aff *a, *b;

	if (op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub &&
	    op != CXBinaryOperator_Mul && op != CXBinaryOperator_Div &&
	    op != CXBinaryOperator_Rem)
		return not_affine(w, c, "uses an operator other than +, -, *, "
			"/ and %");
	if (cf__children(c, ch, 2) != 2)
		return not_affine(w, c, "is not a complete expression");
	a = aff_expr(w, ch[0]);
	b = a ? aff_expr(w, ch[1]) : NULL;
	if (!a || !b) {
		isl_pw_aff_free(a);
		return isl_pw_aff_free(b);
	}
	if (op == CXBinaryOperator_Add)
		return isl_pw_aff_add(a, b);
	if (op == CXBinaryOperator_Sub)
		return isl_pw_aff_sub(a, b);
	return product(w, c, op, a, b);
}

static __isl_give isl_pw_aff *unary(struct cf_walk *w, CXCursor c)
{
	enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
	CXCursor ch;
	isl_pw_aff *a;

	if (op != CXUnaryOperator_Minus && op != CXUnaryOperator_Plus) {
		if (op == CXUnaryOperator_Deref)
			return not_affine(w, c, "reads memory through a "
				"pointer: a value computed from data is not "
				"affine");
		return not_affine(w, c, "uses an operator other than +, -, *, "
			"/ and %");
	}
	if (cf__children(c, &ch, 1) != 1)
		return not_affine(w, c, "is not a complete expression");
	a = aff_expr(w, ch);
	return op == CXUnaryOperator_Minus ? isl_pw_aff_neg(a) : a;
}

/* cond ? a : b, as the min and max macros expand. */
static __isl_give isl_pw_aff *select_aff(struct cf_walk *w, CXCursor c)
{
	CXCursor ch[3];
	isl_set *cond;
	isl_pw_aff *a = NULL, *b = NULL;

	if (cf__children(c, ch, 3) != 3)
		return not_affine(w, c, "is not a complete expression");
	cond = cf__cond(w, ch[0], w->what);
	if (cond)
		a = aff_expr(w, ch[1]);
	if (a)
		b = aff_expr(w, ch[2]);
	if (!b) {
		isl_set_free(cond);
		return isl_pw_aff_free(a);
	}
	return isl_pw_aff_cond(isl_set_indicator_function(cond), a, b);
}

/* A cursor that is an object-like macro's whole expansion becomes the
 * parameter of that name when its value is positive, as AutoSA users
 * write "#define N 1024"; smaller values are plain constants.
 */
static __isl_give isl_pw_aff *macro(struct cf_walk *w, CXCursor c,
	const struct cf_expansion *m)
{
	int64_t v;

	if (eval_int(c, &v) < 0)
		return NULL;
	if (v < 1)
		return constant(w, v);
	return cf__param(w, c, m->name, v, 1) >= 0 ? parameter(w, m->name) :
		NULL;
}

static __isl_give isl_pw_aff *aff_expr(struct cf_walk *w, CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	const struct cf_expansion *m = cf__macro_of(w, c);
	isl_pw_aff *pa = NULL;
	CXCursor inner;
	int64_t v;

	if (w->failed)
		return NULL;
	if (++w->expr_depth > CF_MAX_EXPR_DEPTH) {
		w->expr_depth--;
		return not_affine(w, c, "is nested too deeply");
	}
	if (m && clang_isExpression(k) && (pa = macro(w, c, m)))
		k = CXCursor_InvalidCode;
	if (w->failed) {
		w->expr_depth--;
		return isl_pw_aff_free(pa);
	}
	switch (k) {
	case CXCursor_InvalidCode:
		break;
	case CXCursor_IntegerLiteral:
	case CXCursor_CharacterLiteral:
		pa = eval_int(c, &v) == 0 ? constant(w, v) :
			not_affine(w, c, "is not a 64-bit integer");
		break;
	case CXCursor_ParenExpr:
	case CXCursor_UnexposedExpr:
	case CXCursor_CStyleCastExpr:
		if (!is_integer(clang_getCursorType(c)))
			pa = not_affine(w, c, cf__reads_memory(c) ?
				"reads memory: a value computed from data is "
				"not affine" : "is not an integer");
		else if (operand(c, &inner) == 0)
			pa = aff_expr(w, inner);
		else
			pa = not_affine(w, c, "is not an expression dse reads");
		break;
	case CXCursor_DeclRefExpr:
		pa = variable(w, c);
		break;
	case CXCursor_BinaryOperator:
		pa = binary(w, c);
		break;
	case CXCursor_UnaryOperator:
		pa = unary(w, c);
		break;
	case CXCursor_ConditionalOperator:
		pa = select_aff(w, c);
		break;
	case CXCursor_ArraySubscriptExpr:
		pa = not_affine(w, c, "reads memory: a value computed from "
			"data is not affine");
		break;
	case CXCursor_CallExpr:
		pa = not_affine(w, c, "calls a function");
		break;
	case CXCursor_FloatingLiteral:
		pa = not_affine(w, c, "is a floating-point number");
		break;
	default:
		pa = not_affine(w, c, "is not an integer expression of loop "
			"iterators and parameters");
	}
	w->expr_depth--;
	if (!pa && !w->failed)
		cf__isl_error(w, "building an affine expression");
	return pa;
}

__isl_give isl_pw_aff *cf__aff(struct cf_walk *w, CXCursor c, const char *what)
{
	const char *saved = w->what;
	isl_pw_aff *pa;

	w->what = what;
	pa = aff_expr(w, c);
	w->what = saved;
	return pa;
}

/* a <op> b as a set. */
static __isl_give isl_set *compare(struct cf_walk *w, CXCursor c,
	enum CXBinaryOperatorKind op)
{
	CXCursor ch[2];
	isl_pw_aff *a, *b;

	if (cf__children(c, ch, 2) != 2) {
		not_affine(w, c, "is not a complete expression");
		return NULL;
	}
	a = aff_expr(w, ch[0]);
	b = a ? aff_expr(w, ch[1]) : NULL;
	if (!b) {
		isl_pw_aff_free(a);
		return NULL;
	}
	switch (op) {
	case CXBinaryOperator_LT: return isl_pw_aff_lt_set(a, b);
	case CXBinaryOperator_LE: return isl_pw_aff_le_set(a, b);
	case CXBinaryOperator_GT: return isl_pw_aff_gt_set(a, b);
	case CXBinaryOperator_GE: return isl_pw_aff_ge_set(a, b);
	case CXBinaryOperator_EQ: return isl_pw_aff_eq_set(a, b);
	default: return isl_pw_aff_ne_set(a, b);
	}
}

static __isl_give isl_set *cond_expr(struct cf_walk *w, CXCursor c);

/* a && b, a || b. */
static __isl_give isl_set *logic(struct cf_walk *w, CXCursor c, int and)
{
	CXCursor ch[2];
	isl_set *a, *b;

	if (cf__children(c, ch, 2) != 2) {
		not_affine(w, c, "is not a complete expression");
		return NULL;
	}
	a = cond_expr(w, ch[0]);
	b = a ? cond_expr(w, ch[1]) : NULL;
	if (!b)
		return isl_set_free(a);
	return and ? isl_set_intersect(a, b) : isl_set_union(a, b);
}

static __isl_give isl_set *cond_expr(struct cf_walk *w, CXCursor c)
{
	CXCursor inner;
	enum CXBinaryOperatorKind op;
	isl_set *set;

	c = cf__peel(c);
	if (w->failed || ++w->expr_depth > CF_MAX_EXPR_DEPTH) {
		if (!w->failed)
			not_affine(w, c, "is nested too deeply");
		w->expr_depth--;
		return NULL;
	}
	op = clang_getCursorBinaryOperatorKind(c);
	if (op >= CXBinaryOperator_LT && op <= CXBinaryOperator_NE) {
		set = compare(w, c, op);
	} else if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
		set = logic(w, c, op == CXBinaryOperator_LAnd);
	} else if (clang_getCursorUnaryOperatorKind(c) ==
	    CXUnaryOperator_LNot && cf__children(c, &inner, 1) == 1) {
		set = cond_expr(w, inner);
		set = set ? isl_set_complement(set) : NULL;
	} else {
		isl_pw_aff *pa = aff_expr(w, c);

		set = pa ? isl_pw_aff_non_zero_set(pa) : NULL;
	}
	w->expr_depth--;
	if (!set && !w->failed)
		cf__isl_error(w, "building a condition");
	return set;
}

__isl_give isl_set *cf__cond(struct cf_walk *w, CXCursor c, const char *what)
{
	const char *saved = w->what;
	isl_set *set;

	w->what = what;
	set = cond_expr(w, c);
	w->what = saved;
	return set;
}

struct memory_search {
	int found;
	int depth;
};

static enum CXChildVisitResult find_memory(CXCursor c, CXCursor parent,
	CXClientData data)
{
	struct memory_search *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void) parent;
	if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr ||
	    (k == CXCursor_UnaryOperator &&
	     clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref) ||
	    s->depth > CF_MAX_EXPR_DEPTH) {
		s->found = 1;
		return CXChildVisit_Break;
	}
	s->depth++;
	clang_visitChildren(c, find_memory, s);
	s->depth--;
	return s->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

int cf__reads_memory(CXCursor c)
{
	struct memory_search s = { 0, 0 };

	find_memory(c, clang_getNullCursor(), &s);
	return s.found;
}
