/* filter_expr.cpp: tagk-filter's expressions, through muParser's C++
 * interface; see filter_expr.h for the grammar and why it is C++.
 *
 * muParser's own tokenizer reads every expression: with its built-in
 * binary operators switched off (EnableBuiltInOprt(false), which its C
 * interface does not offer) and its operators, functions and constants
 * replaced by the ones below, the grammar is exactly what this file
 * defines. The assignment operators (=, +=, -=, *=, /=) are built-ins
 * only, so they are no longer operators at all: muParser refuses them as
 * it refuses any unknown token, with their position. No variable factory
 * is set, so no name is ever created by an expression, and each
 * expression has a parser of its own: nothing carries from one expression
 * or row to the next but the columns the caller writes.
 *
 * NaN: IEEE comparisons turn NaN into false (NaN > 0 is 0), pow(NaN, 0) is
 * 1 and muParser's sign(NaN) 0, which would read a row whose value is
 * undefined as a clear "no". Here every operator and function that meets
 * or makes NaN says so (nan_at), and the evaluation is then NaN with the
 * reason; a column the expression names that is NaN in the row is reported
 * before evaluating, because muParser's ?: takes a bare NaN condition for
 * true and cannot be hooked. */
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>
#include <muParser.h>
extern "C" {
#include "filter_expr.h"
}

namespace {

/* The first operator or function that met or made NaN in the current
 * evaluation (NULL: none). File-wide because muParser's callbacks take
 * no context; tagk evaluates on one thread. */
const char *nan_at;

double
seen(const char *op, double v)
{
	if (std::isnan(v) && !nan_at)
		nan_at = op;
	return v;
}

/* Comparisons and logic: NaN if an operand is NaN, else 0 or 1. */
double
logic(const char *op, double a, double b, bool r)
{
	if (std::isnan(a) || std::isnan(b))
		return seen(op, (double)NAN);
	return r ? 1.0 : 0.0;
}

double op_lt(double a, double b) { return logic("<", a, b, a < b); }
double op_le(double a, double b) { return logic("<=", a, b, a <= b); }
double op_gt(double a, double b) { return logic(">", a, b, a > b); }
double op_ge(double a, double b) { return logic(">=", a, b, a >= b); }
double op_eq(double a, double b) { return logic("==", a, b, a == b); }
double op_ne(double a, double b) { return logic("!=", a, b, a != b); }
double op_and(double a, double b) { return logic("&&", a, b, a != 0 && b != 0); }
double op_or(double a, double b) { return logic("||", a, b, a != 0 || b != 0); }
double op_add(double a, double b) { return seen("+", a + b); }
double op_sub(double a, double b) { return seen("-", a - b); }
double op_mul(double a, double b) { return seen("*", a * b); }
double op_div(double a, double b) { return seen("/", a / b); }
/* pow(NaN, 0) and pow(1, NaN) are 1 in C: not here. x^2 is x*x, rounded
 * once, as muParser's own ^ gave it: glibc's pow can be an ulp off
 * (10.787701250940003^2). */
double
op_pow(double a, double b)
{
	if (std::isnan(a) || std::isnan(b))
		return seen("^", (double)NAN);
	return seen("^", b == 2 ? a * a : std::pow(a, b));
}
double op_neg(double a) { return seen("-", -a); }
double op_pos(double a) { return seen("+", a); }

#define FUN1(name, expr) \
	double fn_##name(double x) { return std::isnan(x) ? seen(#name, x) : seen(#name, (expr)); }
FUN1(sin, std::sin(x))
FUN1(cos, std::cos(x))
FUN1(tan, std::tan(x))
FUN1(asin, std::asin(x))
FUN1(acos, std::acos(x))
FUN1(atan, std::atan(x))
FUN1(sinh, std::sinh(x))
FUN1(cosh, std::cosh(x))
FUN1(tanh, std::tanh(x))
FUN1(asinh, std::asinh(x))
FUN1(acosh, std::acosh(x))
FUN1(atanh, std::atanh(x))
FUN1(log2, std::log2(x))
FUN1(log10, std::log10(x))
FUN1(ln, std::log(x))
FUN1(log, std::log(x))
FUN1(exp, std::exp(x))
FUN1(sqrt, std::sqrt(x))
FUN1(abs, std::fabs(x))
FUN1(rint, std::rint(x))
FUN1(sign, x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0)
#undef FUN1
double fn_atan2(double y, double x) { return std::isnan(y) || std::isnan(x) ? seen("atan2", (double)NAN) : seen("atan2", std::atan2(y, x)); }

/* The varargs: NaN in, NaN out (fmin and fmax would drop it). muParser
 * refuses a call without arguments. */
double
fold(const char *name, const double *v, int n, int kind)
{
	double r = v[0], s = 0;
	for (int i = 0; i < n; i++) {
		if (std::isnan(v[i]))
			return seen(name, (double)NAN);
		s += v[i];
		r = kind == 0 ? (v[i] < r ? v[i] : r) : kind == 1 ? (v[i] > r ? v[i] : r) : r;
	}
	return seen(name, kind == 2 ? s : kind == 3 ? s / n : r);
}
double fn_min(const double *v, int n) { return fold("min", v, n, 0); }
double fn_max(const double *v, int n) { return fold("max", v, n, 1); }
double fn_sum(const double *v, int n) { return fold("sum", v, n, 2); }
double fn_avg(const double *v, int n) { return fold("avg", v, n, 3); }

/* The grammar: muParser's defaults replaced, none of its built-in binary
 * operators left. Precedences and associativity are muParser's own. */
void
grammar(mu::Parser &p)
{
	p.ClearFun();
	p.ClearOprt();
	p.ClearInfixOprt();
	p.ClearPostfixOprt();
	p.ClearConst();
	p.EnableBuiltInOprt(false);
	p.EnableOptimizer(false); /* no folding: every NaN is made where it can be seen */
	p.DefineOprt("||", op_or, mu::prLOR);
	p.DefineOprt("&&", op_and, mu::prLAND);
	p.DefineOprt("<", op_lt, mu::prCMP);
	p.DefineOprt("<=", op_le, mu::prCMP);
	p.DefineOprt(">", op_gt, mu::prCMP);
	p.DefineOprt(">=", op_ge, mu::prCMP);
	p.DefineOprt("==", op_eq, mu::prCMP);
	p.DefineOprt("!=", op_ne, mu::prCMP);
	p.DefineOprt("+", op_add, mu::prADD_SUB);
	p.DefineOprt("-", op_sub, mu::prADD_SUB);
	p.DefineOprt("*", op_mul, mu::prMUL_DIV);
	p.DefineOprt("/", op_div, mu::prMUL_DIV);
	p.DefineOprt("^", op_pow, mu::prPOW, mu::oaRIGHT);
	p.DefineInfixOprt("-", op_neg);
	p.DefineInfixOprt("+", op_pos);
	struct { const char *n; mu::fun_type1 f; } f1[] = {
		{ "sin", fn_sin }, { "cos", fn_cos }, { "tan", fn_tan }, { "asin", fn_asin }, { "acos", fn_acos },
		{ "atan", fn_atan }, { "sinh", fn_sinh }, { "cosh", fn_cosh }, { "tanh", fn_tanh },
		{ "asinh", fn_asinh }, { "acosh", fn_acosh }, { "atanh", fn_atanh }, { "log2", fn_log2 },
		{ "log10", fn_log10 }, { "ln", fn_ln }, { "log", fn_log }, { "exp", fn_exp }, { "sqrt", fn_sqrt },
		{ "abs", fn_abs }, { "rint", fn_rint }, { "sign", fn_sign },
	};
	for (auto &f : f1)
		p.DefineFun(f.n, f.f, false);
	p.DefineFun("atan2", fn_atan2, false);
	p.DefineFun("min", fn_min, false);
	p.DefineFun("max", fn_max, false);
	p.DefineFun("sum", fn_sum, false);
	p.DefineFun("avg", fn_avg, false);
}

/* muParser's message without its own "at position N" (0-based, and
 * counted in the expression it pads with a space). */
std::string
message(const mu::Parser::exception_type &x)
{
	std::string m = x.GetMsg();
	static const char *const tails[] = { " found at position", " at expression position", " at position",
		" (position:" };
	for (const char *t : tails) {
		size_t k = m.find(t);
		if (k != std::string::npos) {
			m.erase(k);
			break;
		}
	}
	for (char &c : m)
		if (c == '\n' || c == '\r')
			c = ' ';
	while (!m.empty() && (m.back() == '.' || m.back() == '!' || m.back() == ' '))
		m.pop_back();
	return m;
}

/* The reason on one line, with the position in the expression as a
 * 1-based character offset and the text there. */
void
reason(const mu::Parser::exception_type &x, const char *text, char *err, int len)
{
	const std::string &tok = x.GetToken();
	int n = (int)std::strlen(text), pos = x.GetPos();
	if (pos > n)
		pos = n;
	switch (x.GetCode()) {
	case mu::ecUNASSIGNABLE_TOKEN:
	case mu::ecUNEXPECTED_OPERATOR:
		if (pos >= 0 && pos < n && text[pos] == '=') {
			std::snprintf(err, (size_t)len, "'=' at character %d assigns, which is refused here "
			    "(== compares)", pos + 1);
			return;
		}
		if (!tok.empty() && (std::isalpha((unsigned char)tok[0]) || tok[0] == '_')) {
			std::snprintf(err, (size_t)len, "unknown name '%s' (not a column of the input, nor a function)",
			    tok.c_str());
			return;
		}
		break;
	case mu::ecINTERNAL_ERROR:
		/* muParser says so of an operator left without its operand
		 * ("-", "a++"), found only once the whole text is read. */
		std::snprintf(err, (size_t)len, "incomplete expression: an operator without its operand");
		return;
	default:
		break;
	}
	std::string m = message(x);
	if (pos >= 0 && pos < n)
		std::snprintf(err, (size_t)len, "%s, at character %d ('%.12s%s')", m.c_str(), pos + 1, text + pos,
		    n - pos > 12 ? "..." : "");
	else if (pos >= 0)
		std::snprintf(err, (size_t)len, "%s, at character %d (the end)", m.c_str(), n + 1);
	else
		std::snprintf(err, (size_t)len, "%s", m.c_str());
}

} // namespace

struct fexpr {
	mu::Parser p;
	std::vector<const double *> used;
	std::vector<std::string> used_name;
};

extern "C" fexpr *
fexpr_compile(const char *text, int nvars, const char *const *names, double *vals, char *err, int len)
{
	size_t n = std::strlen(text);
	if (n > FEXPR_MAXLEN) {
		std::snprintf(err, (size_t)len, "%zu characters: an expression has at most %d (muParser's parsing "
		    "time grows with the square of the length: 1.7 s at 20000)", n, FEXPR_MAXLEN);
		return nullptr;
	}
	fexpr *e = new (std::nothrow) fexpr;
	if (!e) {
		std::snprintf(err, (size_t)len, "out of memory");
		return nullptr;
	}
	try {
		e->p.DefineNameChars("0123456789_.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
		grammar(e->p);
		bool pi = false, eul = false;
		for (int i = 0; i < nvars; i++) {
			/* A name muParser cannot read (a digit first, a space, ...)
			 * cannot be referred to: the column is left out. */
			try {
				e->p.DefineVar(names[i], &vals[i]);
			} catch (mu::Parser::exception_type &) {
				continue;
			}
			pi = pi || !std::strcmp(names[i], "_pi");
			eul = eul || !std::strcmp(names[i], "_e");
		}
		/* A column named _pi or _e is that column, not the constant. */
		if (!pi)
			e->p.DefineConst("_pi", M_PI);
		if (!eul)
			e->p.DefineConst("_e", M_E);
		e->p.SetExpr(text);
		(void)e->p.Eval(); /* parses */
		if (e->p.GetNumResults() != 1) {
			std::snprintf(err, (size_t)len,
			    "%d expressions separated by commas: one is read (join conditions with &&)",
			    e->p.GetNumResults());
			delete e;
			return nullptr;
		}
		for (auto &v : e->p.GetUsedVar()) {
			e->used.push_back(v.second);
			e->used_name.push_back(v.first);
		}
	} catch (mu::Parser::exception_type &x) {
		reason(x, text, err, len);
		delete e;
		return nullptr;
	} catch (std::exception &) {
		std::snprintf(err, (size_t)len, "out of memory");
		delete e;
		return nullptr;
	}
	return e;
}

extern "C" double
fexpr_eval(fexpr *e, char *why, int len)
{
	for (size_t i = 0; i < e->used.size(); i++)
		if (std::isnan(*e->used[i])) {
			std::snprintf(why, (size_t)len, "column '%s' is NaN", e->used_name[i].c_str());
			return (double)NAN;
		}
	nan_at = nullptr;
	double v;
	try {
		v = e->p.Eval();
	} catch (mu::Parser::exception_type &x) {
		std::snprintf(why, (size_t)len, "%s", message(x).c_str());
		return (double)NAN;
	}
	if (nan_at) {
		std::snprintf(why, (size_t)len, "'%s' met or made NaN", nan_at);
		return (double)NAN;
	}
	return v;
}

extern "C" void
fexpr_free(fexpr *e)
{
	delete e;
}
