// SPDX-License-Identifier: Apache-2.0
#include <dromedary/sqlite/exchange_codec.h>

#include <cstring>

#include <fmt/format.h>

namespace dromedary::sqlite {

namespace {

constexpr std::string_view kMagic = "DX1";
enum Tag : char { Null, False, True, Int, Double, String, Binary, List, Map };

void putU32(std::string& out, uint32_t n) { out.append(reinterpret_cast<const char*>(&n), 4); }

void putText(std::string& out, std::string_view s) {
  putU32(out, static_cast<uint32_t>(s.size()));
  out.append(s);
}

void putValue(std::string& out, const Value& v) {
  switch (v.type()) {
    case ValueType::Null: out += Null; break;
    case ValueType::Bool: out += v.getBool() ? True : False; break;
    case ValueType::Int: {
      out += Int;
      int64_t n = v.getInt();
      out.append(reinterpret_cast<const char*>(&n), 8);
      break;
    }
    case ValueType::Double: {
      out += Double;
      double d = v.getDouble();
      out.append(reinterpret_cast<const char*>(&d), 8);
      break;
    }
    case ValueType::String: out += String; putText(out, v.getString()); break;
    case ValueType::Bytes: out += Binary; putText(out, v.getBytes().view()); break;
    case ValueType::List:
      out += List;
      putU32(out, static_cast<uint32_t>(v.getList().size()));
      for (const Value& e : v.getList()) putValue(out, e);
      break;
    case ValueType::Map:
      out += Map;
      putU32(out, static_cast<uint32_t>(v.getMap().size()));
      for (const auto& [k, e] : v.getMap()) {
        putText(out, k);
        putValue(out, e);
      }
      break;
    case ValueType::Object:
      throw DromedaryException(makeError(
          ErrorCode::TypeConversion,
          fmt::format("cannot store a value of type {} in a repository", v.typeName())));
  }
}

void putHeaders(std::string& out, const Headers& h) {
  putU32(out, static_cast<uint32_t>(h.size()));
  for (const Headers::Entry& e : h) {
    putText(out, e.name);
    putValue(out, e.value);
  }
}

class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}
  bool ok() const { return ok_; }

  uint32_t u32() {
    if (!need(4)) return 0;
    uint32_t n;
    std::memcpy(&n, data_.data() + pos_, 4);
    pos_ += 4;
    return n;
  }
  std::string_view text() {
    uint32_t n = u32();
    if (!need(n)) return {};
    std::string_view s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  Value value(int depth = 0) {
    if (!need(1) || depth > 64) return fail();
    char tag = data_[pos_++];
    switch (tag) {
      case Null: return Value();
      case False: return Value(false);
      case True: return Value(true);
      case Int: {
        if (!need(8)) return fail();
        int64_t n;
        std::memcpy(&n, data_.data() + pos_, 8);
        pos_ += 8;
        return Value(n);
      }
      case Double: {
        if (!need(8)) return fail();
        double d;
        std::memcpy(&d, data_.data() + pos_, 8);
        pos_ += 8;
        return Value(d);
      }
      case String: return Value(std::string(text()));
      case Binary: return Value(Bytes(text()));
      case List: {
        ValueList list;
        for (uint32_t i = u32(); ok_ && i > 0; --i) list.push_back(value(depth + 1));
        return Value(std::move(list));
      }
      case Map: {
        ValueMap map;
        for (uint32_t i = u32(); ok_ && i > 0; --i) {
          std::string key(text());
          map.emplace_back(std::move(key), value(depth + 1));
        }
        return Value(std::move(map));
      }
      default: return fail();
    }
  }
  void headers(Headers& h) {
    for (uint32_t i = u32(); ok_ && i > 0; --i) {
      std::string name(text());
      h.set(name, value());
    }
  }
  bool atEnd() const { return pos_ == data_.size(); }

 private:
  bool need(size_t n) {
    if (ok_ && data_.size() - pos_ >= n) return true;
    ok_ = false;
    return false;
  }
  Value fail() {
    ok_ = false;
    return Value();
  }
  std::string_view data_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace

std::string encodeExchange(const Exchange& ex) {
  std::string out(kMagic);
  out += ex.pattern() == Pattern::InOut ? '\1' : '\0';
  putHeaders(out, ex.message().headers());
  putHeaders(out, ex.properties());
  putValue(out, ex.message().body());
  return out;
}

bool decodeExchange(std::string_view data, Exchange& ex) {
  if (data.substr(0, kMagic.size()) != kMagic || data.size() < kMagic.size() + 1) return false;
  ex.setPattern(data[kMagic.size()] == '\1' ? Pattern::InOut : Pattern::InOnly);
  Reader r(data.substr(kMagic.size() + 1));
  r.headers(ex.message().headers());
  r.headers(ex.properties());
  Value body = r.value();
  if (!r.ok() || !r.atEnd()) return false;
  ex.message().setBody(std::move(body));
  return true;
}

}  // namespace dromedary::sqlite
