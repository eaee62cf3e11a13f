// SPDX-License-Identifier: Apache-2.0
#include "message_codec.h"

#include <map>
#include <vector>

#include <proton/binary.hpp>
#include <proton/codec/vector.hpp>
#include <proton/message_id.hpp>
#include <proton/scalar.hpp>
#include <proton/symbol.hpp>
#include <proton/timestamp.hpp>
#include <proton/uuid.hpp>
#include <proton/value.hpp>

namespace dromedary::component::amqp {

namespace {

bool startsWithIgnoreCase(std::string_view s, std::string_view prefix) noexcept {
  return s.size() >= prefix.size() && equalsIgnoreCase(s.substr(0, prefix.size()), prefix);
}

// Headers the JMS mapping turns into the message's own fields (or leaves out).
bool mappedHeader(std::string_view name) noexcept {
  return startsWithIgnoreCase(name, "JMS") || equalsIgnoreCase(name, "Content-Type");
}

// Bytes as AMQP binary. Built from uint8_t pointers, so the copy is one memcpy.
proton::binary binaryOf(const Bytes& b) {
  const auto* data = reinterpret_cast<const uint8_t*>(b.data());
  proton::binary out;
  out.assign(data, data + b.size());
  return out;
}

Value bytesOf(const proton::binary& b) {
  return Bytes(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
}

// A simple value (null, boolean, number, text, bytes) into `out`, a proton::value (a body)
// or a proton::scalar (an application property, where AMQP allows only these); false for
// lists, maps and objects.
template <class Out>
bool toSimple(const Value& v, Out& out) {
  switch (v.type()) {
    case ValueType::Null: out = Out(); return true;
    case ValueType::Bool: out = v.getBool(); return true;
    case ValueType::Int: out = v.getInt(); return true;
    case ValueType::Double: out = v.getDouble(); return true;
    case ValueType::String: out = v.getString(); return true;
    case ValueType::Bytes: out = binaryOf(v.getBytes()); return true;
    default: return false;
  }
}

// A body or nested value as AMQP. Objects go as text when a converter knows them. Values are
// encoded straight into `out`, never through proton::scalar, which copies strings and
// binaries a byte at a time (over half the client's CPU in the broker benchmark's 12 KB
// one-way before this).
bool toAmqp(const Value& v, proton::value& out, std::string& error) {
  if (toSimple(v, out)) return true;
  switch (v.type()) {
    case ValueType::List: {
      std::vector<proton::value> items(v.getList().size());
      for (size_t i = 0; i < items.size(); ++i) {
        if (!toAmqp(v.getList()[i], items[i], error)) return false;
      }
      out = items;
      return true;
    }
    case ValueType::Map: {
      std::vector<std::pair<std::string, proton::value>> entries(v.getMap().size());
      for (size_t i = 0; i < entries.size(); ++i) {
        entries[i].first = v.getMap()[i].first;
        if (!toAmqp(v.getMap()[i].second, entries[i].second, error)) return false;
      }
      out = entries;
      return true;
    }
    case ValueType::Object:
      try {
        out = v.as<std::string>();
        return true;
      } catch (const std::exception& e) {
        error = "a body of type " + std::string(v.typeName()) +
                " cannot be sent over AMQP (no conversion to text: " + e.what() + ")";
        return false;
      }
    default: return false;  // simple values are done above
  }
}

Value scalarToValue(const proton::scalar& s) {
  switch (s.type()) {
    case proton::BOOLEAN: return proton::get<bool>(s);
    case proton::UBYTE: return proton::get<uint8_t>(s);
    case proton::BYTE: return proton::get<int8_t>(s);
    case proton::USHORT: return proton::get<uint16_t>(s);
    case proton::SHORT: return proton::get<int16_t>(s);
    case proton::UINT: return proton::get<uint32_t>(s);
    case proton::INT: return proton::get<int32_t>(s);
    case proton::ULONG: return static_cast<int64_t>(proton::get<uint64_t>(s));
    case proton::LONG: return proton::get<int64_t>(s);
    case proton::TIMESTAMP: return proton::get<proton::timestamp>(s).milliseconds();
    case proton::FLOAT: return static_cast<double>(proton::get<float>(s));
    case proton::DOUBLE: return proton::get<double>(s);
    case proton::STRING: return proton::get<std::string>(s);
    case proton::SYMBOL: return std::string(proton::get<proton::symbol>(s));
    case proton::BINARY: return bytesOf(proton::get<proton::binary>(s));
    case proton::UUID: return proton::get<proton::uuid>(s).str();
    case proton::CHAR: {
      wchar_t c = proton::get<wchar_t>(s);
      return std::string(1, static_cast<char>(c));
    }
    default: return proton::to_string(s);
  }
}

Value fromAmqp(const proton::value& v) {
  switch (v.type()) {
    case proton::NULL_TYPE: return Value();
    case proton::LIST:
    case proton::ARRAY: {
      std::vector<proton::value> items;
      proton::get(v, items);
      ValueList list;
      list.reserve(items.size());
      for (const proton::value& item : items) list.push_back(fromAmqp(item));
      return list;
    }
    case proton::MAP: {
      std::vector<std::pair<proton::value, proton::value>> entries;
      proton::get(v, entries);
      ValueMap map;
      map.reserve(entries.size());
      for (auto& [key, value] : entries) {
        Value k = fromAmqp(key);
        map.emplace_back(k.isString() ? k.getString() : proton::to_string(key), fromAmqp(value));
      }
      return map;
    }
    case proton::DESCRIBED: return proton::to_string(v);
    // Strings and binaries straight from the value (see toAmqp: not through a scalar).
    case proton::STRING: return proton::get<std::string>(v);
    case proton::BINARY: return bytesOf(proton::get<proton::binary>(v));
    default: return scalarToValue(proton::get<proton::scalar>(v));
  }
}

}  // namespace

std::string messageIdText(const proton::message_id& id) {
  switch (id.type()) {
    case proton::NULL_TYPE: return {};
    case proton::STRING: return proton::get<std::string>(id);
    case proton::ULONG: return std::to_string(proton::get<uint64_t>(id));
    case proton::UUID: return proton::get<proton::uuid>(id).str();
    case proton::BINARY: {
      proton::binary b = proton::get<proton::binary>(id);
      return std::string(reinterpret_cast<const char*>(b.data()), b.size());
    }
    default: return proton::to_string(id);
  }
}

std::shared_ptr<const HeaderFilterStrategy> amqpHeaderFilterStrategy() {
  static const std::shared_ptr<const HeaderFilterStrategy> kStrategy =
      std::make_shared<DefaultHeaderFilterStrategy>();
  return kStrategy;
}

bool encodeMessage(const Message& in, const OutgoingQos& qos, const HeaderFilterStrategy& filter,
                   proton::message& out, std::string& error) {
  out.clear();
  if (!toAmqp(in.body(), out.body(), error)) return false;
  proton::message::property_map& props = out.properties();
  bool durable = qos.durable;
  int64_t ttl = qos.ttlMillis;
  int priority = qos.priority;
  for (const Headers::Entry& h : in.headers()) {
    std::string_view name = h.name;
    if (!mappedHeader(name)) {
      proton::scalar s;
      if (!filter.applyFilterToCamelHeaders(name, h.value) && toSimple(h.value, s)) {
        props.put(h.name, s);
      }
      continue;
    }
    if (equalsIgnoreCase(name, "JMSCorrelationID") && h.value.isString()) {
      out.correlation_id(h.value.getString());
    } else if (equalsIgnoreCase(name, "JMSType") && h.value.isString()) {
      out.subject(h.value.getString());
    } else if (equalsIgnoreCase(name, "JMSXGroupID") && h.value.isString()) {
      out.group_id(h.value.getString());
    } else if (equalsIgnoreCase(name, "Content-Type") && h.value.isString()) {
      out.content_type(h.value.getString());
    } else if (qos.preserveMessageQos && h.value.isInt()) {
      if (equalsIgnoreCase(name, "JMSPriority")) priority = static_cast<int>(h.value.getInt());
      if (equalsIgnoreCase(name, "JMSDeliveryMode")) durable = h.value.getInt() == 2;
      if (equalsIgnoreCase(name, "JMSExpiration") && h.value.getInt() > 0) {
        out.expiry_time(proton::timestamp(h.value.getInt()));
      }
    }
  }
  out.durable(durable);
  // We are the first acquirer's sender: a broker that redelivers clears it (RabbitMQ marks
  // redelivery only so), one that passes it on keeps it.
  out.first_acquirer(true);
  if (ttl > 0) out.ttl(proton::duration(ttl));
  if (priority >= 0) out.priority(static_cast<uint8_t>(priority > 9 ? 9 : priority));
  return true;
}

void decodeMessage(const proton::message& in, const HeaderFilterStrategy& filter, Message& out,
                   Value* remote_failure) {
  out.clear();
  if (remote_failure) *remote_failure = Value();
  out.setBody(fromAmqp(in.body()));
  Headers& headers = out.headers();
  // The properties' encoded value, read once. Not properties().empty(): that decodes them
  // into the map's std::map cache, and value() then encodes the cache again (two thirds of
  // a 1 KB message's decoding).
  const proton::value& encoded = in.properties().value();
  if (!encoded.empty()) {
    std::vector<std::pair<std::string, proton::scalar>> properties;
    proton::get(encoded, properties);  // in the order they were sent
    for (const auto& [key, value] : properties) {
      Value v = scalarToValue(value);
      if (remote_failure && key == kExceptionProperty) *remote_failure = v;
      if (!filter.applyFilterToExternalHeaders(key, v)) headers.set(key, std::move(v));
    }
  }
  if (!in.id().empty()) headers.set("JMSMessageID", messageIdText(in.id()));
  if (!in.correlation_id().empty()) {
    headers.set("JMSCorrelationID", messageIdText(in.correlation_id()));
  }
  if (!in.reply_to().empty()) headers.set("JMSReplyTo", in.reply_to());
  if (!in.to().empty()) headers.set("JMSDestination", in.to());
  if (!in.subject().empty()) headers.set("JMSType", in.subject());
  if (!in.group_id().empty()) headers.set("JMSXGroupID", in.group_id());
  if (!in.user().empty()) headers.set("JMSXUserID", in.user());
  if (!in.content_type().empty()) headers.set("Content-Type", in.content_type());
  headers.set("JMSPriority", static_cast<int64_t>(in.priority()));
  headers.set("JMSDeliveryMode", static_cast<int64_t>(in.durable() ? 2 : 1));
  int64_t created = in.creation_time().milliseconds();
  if (created > 0) headers.set("JMSTimestamp", created);
  int64_t expiry = in.expiry_time().milliseconds();
  if (expiry <= 0 && created > 0 && in.ttl().milliseconds() > 0) {
    expiry = created + static_cast<int64_t>(in.ttl().milliseconds());
  }
  headers.set("JMSExpiration", expiry > 0 ? expiry : int64_t{0});
  headers.set("JMSRedelivered", isRedelivery(in));
  headers.set("JMSXDeliveryCount", static_cast<int64_t>(in.delivery_count()) + 1);
}

}  // namespace dromedary::component::amqp
