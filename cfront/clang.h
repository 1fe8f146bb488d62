/* cfront: libclang reached through a table loaded on first use.
 *
 * libclang pulls in LLVM, whose 100 MB of code and half a million
 * relocations cost about 80 ms at every start of a program linked to it:
 * most of "dse --help" and of every command that never reads C.  So no
 * dse program links libclang; cfront_read loads it with dlopen the first
 * time a C kernel is read (the path the build found, then its file name
 * through the loader's usual search), and the files of this folder call
 * it through the table below.  The macros after the table keep the call
 * sites written as libclang's documentation writes them.
 *
 * The table is filled once under pthread_once and only read afterwards,
 * so threads may read C kernels at the same time; the library is never
 * unloaded (LLVM's static destructors make dlclose unsafe).
 */
#ifndef CFRONT_CLANG_H
#define CFRONT_CLANG_H

#include <clang-c/Index.h>

#include "core/error.h"

/* Every libclang function cfront calls.  A call to one missing here fails
 * to link, since no dse program links libclang itself.
 */
#define CFRONT_CLANG_FUNCS(X) \
	X(clang_Cursor_Evaluate) X(clang_Cursor_getVarDeclInitializer) \
	X(clang_Cursor_isMacroFunctionLike) X(clang_Cursor_isNull) \
	X(clang_EvalResult_dispose) X(clang_EvalResult_getAsLongLong) \
	X(clang_EvalResult_getAsUnsigned) X(clang_EvalResult_getKind) \
	X(clang_EvalResult_isUnsignedInt) X(clang_File_isEqual) \
	X(clang_createIndex) X(clang_disposeDiagnostic) \
	X(clang_disposeIndex) X(clang_disposeSourceRangeList) \
	X(clang_disposeString) X(clang_disposeTokens) \
	X(clang_disposeTranslationUnit) X(clang_equalCursors) \
	X(clang_getArrayElementType) X(clang_getArraySize) \
	X(clang_getCString) X(clang_getCanonicalType) \
	X(clang_getCursorBinaryOperatorKind) X(clang_getCursorExtent) \
	X(clang_getCursorKind) X(clang_getCursorReferenced) \
	X(clang_getCursorSpelling) X(clang_getCursorType) \
	X(clang_getCursorUnaryOperatorKind) X(clang_getDiagnostic) \
	X(clang_getDiagnosticLocation) X(clang_getDiagnosticSeverity) \
	X(clang_getDiagnosticSpelling) X(clang_getExpansionLocation) \
	X(clang_getFile) X(clang_getFileContents) X(clang_getFileName) \
	X(clang_getLocationForOffset) X(clang_getNullCursor) \
	X(clang_getNumDiagnostics) X(clang_getPointeeType) \
	X(clang_getRange) X(clang_getRangeEnd) X(clang_getRangeStart) \
	X(clang_getSkippedRanges) X(clang_getTokenLocation) \
	X(clang_getTokenSpelling) X(clang_getTranslationUnitCursor) \
	X(clang_getTypeSpelling) X(clang_getUnqualifiedType) \
	X(clang_isConstQualifiedType) X(clang_isCursorDefinition) \
	X(clang_isExpression) X(clang_parseTranslationUnit2) \
	X(clang_tokenize) X(clang_visitChildren)

/* One pointer per function, typed from libclang's own declaration. */
struct cfront__clang_api {
#define CFRONT_CLANG_MEMBER(f) __typeof__(f) *f;
	CFRONT_CLANG_FUNCS(CFRONT_CLANG_MEMBER)
#undef CFRONT_CLANG_MEMBER
};

/* Loads libclang on the first call and returns its table, or NULL with
 * err set (DSE_E_RUNTIME, naming the library and the loader's reason)
 * when it cannot be loaded or lacks a function cfront needs.
 */
const struct cfront__clang_api *cfront__clang_load(dse_error *err);

/* The table, once cfront__clang_load has succeeded in this process. */
const struct cfront__clang_api *cfront__clang(void);

/* From here on the files of this folder call libclang through the table;
 * every path into them starts at cfront_read, which loads it first.
 */
#ifndef CFRONT_CLANG_NO_CALLS
#define CFRONT_CLANG_CALL(f) (cfront__clang()->f)
#define clang_Cursor_Evaluate CFRONT_CLANG_CALL(clang_Cursor_Evaluate)
#define clang_Cursor_getVarDeclInitializer CFRONT_CLANG_CALL(clang_Cursor_getVarDeclInitializer)
#define clang_Cursor_isMacroFunctionLike CFRONT_CLANG_CALL(clang_Cursor_isMacroFunctionLike)
#define clang_Cursor_isNull CFRONT_CLANG_CALL(clang_Cursor_isNull)
#define clang_EvalResult_dispose CFRONT_CLANG_CALL(clang_EvalResult_dispose)
#define clang_EvalResult_getAsLongLong CFRONT_CLANG_CALL(clang_EvalResult_getAsLongLong)
#define clang_EvalResult_getAsUnsigned CFRONT_CLANG_CALL(clang_EvalResult_getAsUnsigned)
#define clang_EvalResult_getKind CFRONT_CLANG_CALL(clang_EvalResult_getKind)
#define clang_EvalResult_isUnsignedInt CFRONT_CLANG_CALL(clang_EvalResult_isUnsignedInt)
#define clang_File_isEqual CFRONT_CLANG_CALL(clang_File_isEqual)
#define clang_createIndex CFRONT_CLANG_CALL(clang_createIndex)
#define clang_disposeDiagnostic CFRONT_CLANG_CALL(clang_disposeDiagnostic)
#define clang_disposeIndex CFRONT_CLANG_CALL(clang_disposeIndex)
#define clang_disposeSourceRangeList CFRONT_CLANG_CALL(clang_disposeSourceRangeList)
#define clang_disposeString CFRONT_CLANG_CALL(clang_disposeString)
#define clang_disposeTokens CFRONT_CLANG_CALL(clang_disposeTokens)
#define clang_disposeTranslationUnit CFRONT_CLANG_CALL(clang_disposeTranslationUnit)
#define clang_equalCursors CFRONT_CLANG_CALL(clang_equalCursors)
#define clang_getArrayElementType CFRONT_CLANG_CALL(clang_getArrayElementType)
#define clang_getArraySize CFRONT_CLANG_CALL(clang_getArraySize)
#define clang_getCString CFRONT_CLANG_CALL(clang_getCString)
#define clang_getCanonicalType CFRONT_CLANG_CALL(clang_getCanonicalType)
#define clang_getCursorBinaryOperatorKind CFRONT_CLANG_CALL(clang_getCursorBinaryOperatorKind)
#define clang_getCursorExtent CFRONT_CLANG_CALL(clang_getCursorExtent)
#define clang_getCursorKind CFRONT_CLANG_CALL(clang_getCursorKind)
#define clang_getCursorReferenced CFRONT_CLANG_CALL(clang_getCursorReferenced)
#define clang_getCursorSpelling CFRONT_CLANG_CALL(clang_getCursorSpelling)
#define clang_getCursorType CFRONT_CLANG_CALL(clang_getCursorType)
#define clang_getCursorUnaryOperatorKind CFRONT_CLANG_CALL(clang_getCursorUnaryOperatorKind)
#define clang_getDiagnostic CFRONT_CLANG_CALL(clang_getDiagnostic)
#define clang_getDiagnosticLocation CFRONT_CLANG_CALL(clang_getDiagnosticLocation)
#define clang_getDiagnosticSeverity CFRONT_CLANG_CALL(clang_getDiagnosticSeverity)
#define clang_getDiagnosticSpelling CFRONT_CLANG_CALL(clang_getDiagnosticSpelling)
#define clang_getExpansionLocation CFRONT_CLANG_CALL(clang_getExpansionLocation)
#define clang_getFile CFRONT_CLANG_CALL(clang_getFile)
#define clang_getFileContents CFRONT_CLANG_CALL(clang_getFileContents)
#define clang_getFileName CFRONT_CLANG_CALL(clang_getFileName)
#define clang_getLocationForOffset CFRONT_CLANG_CALL(clang_getLocationForOffset)
#define clang_getNullCursor CFRONT_CLANG_CALL(clang_getNullCursor)
#define clang_getNumDiagnostics CFRONT_CLANG_CALL(clang_getNumDiagnostics)
#define clang_getPointeeType CFRONT_CLANG_CALL(clang_getPointeeType)
#define clang_getRange CFRONT_CLANG_CALL(clang_getRange)
#define clang_getRangeEnd CFRONT_CLANG_CALL(clang_getRangeEnd)
#define clang_getRangeStart CFRONT_CLANG_CALL(clang_getRangeStart)
#define clang_getSkippedRanges CFRONT_CLANG_CALL(clang_getSkippedRanges)
#define clang_getTokenLocation CFRONT_CLANG_CALL(clang_getTokenLocation)
#define clang_getTokenSpelling CFRONT_CLANG_CALL(clang_getTokenSpelling)
#define clang_getTranslationUnitCursor CFRONT_CLANG_CALL(clang_getTranslationUnitCursor)
#define clang_getTypeSpelling CFRONT_CLANG_CALL(clang_getTypeSpelling)
#define clang_getUnqualifiedType CFRONT_CLANG_CALL(clang_getUnqualifiedType)
#define clang_isConstQualifiedType CFRONT_CLANG_CALL(clang_isConstQualifiedType)
#define clang_isCursorDefinition CFRONT_CLANG_CALL(clang_isCursorDefinition)
#define clang_isExpression CFRONT_CLANG_CALL(clang_isExpression)
#define clang_parseTranslationUnit2 CFRONT_CLANG_CALL(clang_parseTranslationUnit2)
#define clang_tokenize CFRONT_CLANG_CALL(clang_tokenize)
#define clang_visitChildren CFRONT_CLANG_CALL(clang_visitChildren)
#endif

#endif
