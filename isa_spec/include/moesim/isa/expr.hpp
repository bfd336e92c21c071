// Integer latency formulas of isa.yaml ("HBM_LATENCY + rows * ceil_div(len, 64)").
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>

namespace moesim::isa {

class ExprError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A parsed formula. Grammar: sum := prod (('+'|'-') prod)*; prod := atom (('*'|'/') atom)*;
/// atom := integer | identifier | func '(' sum (',' sum)* ')' | '(' sum ')'.
/// Functions: ceil_div(a,b), log2(a) (a a power of two), max(a,b), min(a,b). '/' is integer
/// division. Evaluation errors (unknown name, division by 0, log2 of a non-power of two)
/// throw ExprError naming the formula.
class Expr {
 public:
  Expr() = default;
  static Expr parse(const std::string& text);  ///< throws ExprError with the column
  int64_t eval(const std::function<int64_t(const std::string&)>& lookup) const;
  std::set<std::string> identifiers() const;
  const std::string& text() const { return text_; }
  struct Node;

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;
};

}  // namespace moesim::isa
