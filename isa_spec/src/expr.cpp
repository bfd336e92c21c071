// Latency formula parser and evaluator (expr.hpp; grammar in isa.yaml's header).
#include "moesim/isa/expr.hpp"

#include <cctype>
#include <vector>

namespace moesim::isa {

struct Expr::Node {
  enum class Kind { Num, Var, Add, Sub, Mul, Div, CeilDiv, Log2, Max, Min };
  Kind kind = Kind::Num;
  int64_t value = 0;
  std::string name;
  std::vector<std::shared_ptr<const Node>> args;
};

namespace {

using NodeP = std::shared_ptr<const Expr::Node>;
using Kind = Expr::Node::Kind;

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  NodeP parse_all() {
    NodeP n = sum();
    skip_ws();
    if (pos_ != s_.size()) fail("unexpected '" + std::string(1, s_[pos_]) + "'");
    return n;
  }

 private:
  const std::string& s_;
  size_t pos_ = 0;

  [[noreturn]] void fail(const std::string& msg) const {
    throw ExprError("formula '" + s_ + "': column " + std::to_string(pos_ + 1) + ": " + msg);
  }
  void skip_ws() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!accept(c)) fail(std::string("expected '") + c + "'");
  }
  static NodeP make(Kind k, std::vector<NodeP> args) {
    auto n = std::make_shared<Expr::Node>();
    n->kind = k;
    n->args = std::move(args);
    return n;
  }

  NodeP sum() {
    NodeP left = prod();
    for (;;) {
      if (accept('+')) {
        left = make(Kind::Add, {left, prod()});
      } else if (accept('-')) {
        left = make(Kind::Sub, {left, prod()});
      } else {
        return left;
      }
    }
  }
  NodeP prod() {
    NodeP left = atom();
    for (;;) {
      if (accept('*')) {
        left = make(Kind::Mul, {left, atom()});
      } else if (accept('/')) {
        left = make(Kind::Div, {left, atom()});
      } else {
        return left;
      }
    }
  }
  NodeP atom() {
    skip_ws();
    if (pos_ >= s_.size()) fail("unexpected end of formula");
    char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      NodeP n = sum();
      expect(')');
      return n;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        int digit = s_[pos_] - '0';
        if (v > (INT64_MAX - digit) / 10) fail("integer too large");
        v = v * 10 + digit;
        ++pos_;
      }
      if (pos_ < s_.size() &&
          (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
        fail("malformed number");
      auto n = std::make_shared<Expr::Node>();
      n->kind = Kind::Num;
      n->value = v;
      return n;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      while (pos_ < s_.size() &&
             (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
        ++pos_;
      std::string id = s_.substr(start, pos_ - start);
      skip_ws();
      if (pos_ < s_.size() && s_[pos_] == '(') {
        Kind k;
        size_t arity;
        if (id == "ceil_div") {
          k = Kind::CeilDiv, arity = 2;
        } else if (id == "log2") {
          k = Kind::Log2, arity = 1;
        } else if (id == "max") {
          k = Kind::Max, arity = 2;
        } else if (id == "min") {
          k = Kind::Min, arity = 2;
        } else {
          pos_ = start;
          fail("unknown function '" + id + "'");
        }
        ++pos_;
        std::vector<NodeP> args{sum()};
        while (accept(',')) args.push_back(sum());
        if (args.size() != arity) {
          fail(id + "() takes " + std::to_string(arity) + " argument" + (arity > 1 ? "s" : "") +
               ", got " + std::to_string(args.size()));
        }
        expect(')');
        return make(k, std::move(args));
      }
      auto n = std::make_shared<Expr::Node>();
      n->kind = Kind::Var;
      n->name = id;
      return n;
    }
    fail("unexpected '" + std::string(1, c) + "'");
  }
};

void collect(const Expr::Node& n, std::set<std::string>& out) {
  if (n.kind == Kind::Var) out.insert(n.name);
  for (const auto& a : n.args) collect(*a, out);
}

int64_t eval_node(const Expr::Node& n, const std::function<int64_t(const std::string&)>& lookup,
                  const std::string& text) {
  auto fail = [&](const std::string& msg) -> int64_t {
    throw ExprError("formula '" + text + "': " + msg);
  };
  if (n.kind == Kind::Num) return n.value;
  if (n.kind == Kind::Var) return lookup(n.name);
  int64_t a = eval_node(*n.args[0], lookup, text);
  int64_t b = n.args.size() > 1 ? eval_node(*n.args[1], lookup, text) : 0;
  int64_t r = 0;
  switch (n.kind) {
    case Kind::Add:
      if (__builtin_add_overflow(a, b, &r)) fail("overflow in +");
      return r;
    case Kind::Sub:
      if (__builtin_sub_overflow(a, b, &r)) fail("overflow in -");
      return r;
    case Kind::Mul:
      if (__builtin_mul_overflow(a, b, &r)) fail("overflow in *");
      return r;
    case Kind::Div:
      if (b == 0) fail("division by 0");
      if (a < 0 || b < 0) fail("'/' needs operands >= 0");
      return a / b;
    case Kind::CeilDiv:
      if (b <= 0) fail("ceil_div divisor must be > 0");
      if (a < 0) fail("ceil_div dividend must be >= 0");
      return a / b + (a % b != 0 ? 1 : 0);
    case Kind::Log2:
      if (a <= 0 || (a & (a - 1)) != 0)
        fail("log2 of " + std::to_string(a) + ", not a power of two");
      return 63 - __builtin_clzll(static_cast<uint64_t>(a));
    case Kind::Max:
      return a > b ? a : b;
    case Kind::Min:
      return a < b ? a : b;
    default:
      return fail("corrupt expression");
  }
}

}  // namespace

Expr Expr::parse(const std::string& text) {
  Expr e;
  e.text_ = text;
  e.root_ = Parser(e.text_).parse_all();
  return e;
}

int64_t Expr::eval(const std::function<int64_t(const std::string&)>& lookup) const {
  if (!root_) throw ExprError("evaluating an empty formula");
  return eval_node(*root_, lookup, text_);
}

std::set<std::string> Expr::identifiers() const {
  std::set<std::string> out;
  if (root_) collect(*root_, out);
  return out;
}

}  // namespace moesim::isa
