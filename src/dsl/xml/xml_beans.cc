// SPDX-License-Identifier: Apache-2.0
#include "dsl/xml/xml_beans.h"

#include <fmt/format.h>

#include "core/text.h"

namespace dromedary::dsl {

Result<BeanSource> camelXmlBean(const pugi::xml_node& node, const XmlPlaces& places) {
  BeanSource bean;
  pugi::xml_attribute name = node.attribute("name");
  if (!name) return fileError(places.at(node), "<bean> needs 'name'");
  bean.name = Scalar{name.value(), places.at(node, name)};
  bean.type = node.attribute("type").value();
  for (pugi::xml_node group : node.children()) {
    if (group.type() != pugi::node_element) continue;
    if (localName(group) != "properties") {
      // constructors, a script, a factory or builder: Java's ways to make the object.
      return fileError(places.at(group),
                       fmt::format("<{}> in <bean> needs Java: only <properties> can be read here",
                                   localName(group)));
    }
    for (pugi::xml_node p : group.children()) {
      if (p.type() != pugi::node_element) continue;
      pugi::xml_attribute key = p.attribute("key");
      pugi::xml_attribute value = p.attribute("value");
      if (localName(p) != "property" || !key || !value) {
        return fileError(places.at(p), "<properties> holds <property key=\"...\" value=\"...\">");
      }
      bean.properties.emplace_back(key.value(), Scalar{value.value(), places.at(p, value)});
    }
  }
  return bean;
}

BeanSource springXmlBean(const pugi::xml_node& node, const XmlPlaces& places) {
  BeanSource bean;
  pugi::xml_attribute id = node.attribute("id");
  bean.name = Scalar{id.value(), places.at(node, id)};
  bean.type = node.attribute("class").value();
  for (pugi::xml_node p : node.children()) {
    if (p.type() != pugi::node_element || localName(p) != "property") continue;
    pugi::xml_attribute value = p.attribute("value");
    pugi::xml_attribute ref = p.attribute("ref");
    if (value) {
      bean.properties.emplace_back(p.attribute("name").value(),
                                   Scalar{springPlaceholders(value.value()), places.at(p, value)});
    } else if (ref) {
      bean.properties.emplace_back(p.attribute("name").value(),
                                   Scalar{fmt::format("#{}", ref.value()), places.at(p, ref)});
    }
  }
  return bean;
}

void propertyLocations(const pugi::xml_node& node, const XmlPlaces& places,
                       std::vector<Scalar>& out) {
  pugi::xml_attribute location = node.attribute("location");
  std::string_view list = location.value();
  while (!list.empty()) {
    const size_t comma = list.find(',');
    std::string_view one = trim(list.substr(0, comma));
    if (!one.empty()) out.push_back(Scalar{std::string(one), places.at(node, location)});
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
}

std::string springPlaceholders(std::string_view value) {
  std::string out;
  size_t at = 0;
  while (true) {
    const size_t open = value.find("${", at);
    const size_t close = open == std::string_view::npos ? open : value.find('}', open + 2);
    if (close == std::string_view::npos) break;
    out.append(value.substr(at, open - at));
    out.append("{{").append(value.substr(open + 2, close - open - 2)).append("}}");
    at = close + 1;
  }
  out.append(value.substr(at));
  return out;
}

}  // namespace dromedary::dsl
