#!/usr/bin/env python3
"""The chapter-list extraction of `dbmultiverse-site-bench`, in Python, for comparison in the same
run: lxml (libxml2's HTML parser + XPath, as ours) and BeautifulSoup with html.parser (what
Komikku uses). Each reads the same file and extracts what ours does: sections h1.horscadrelect,
the chapters after each (class cadrelect or chapter as whole tokens), a chapter's h4 (number,
name after the colon), its p a links (first and last page), its first img.

usage: site-parsers-bench.py FILE ROUNDS -> prints "lxml <seconds per page> <chapters>" and
"bs4 <seconds per page> <chapters>", the median of ROUNDS rounds (BeautifulSoup gets fewer).
"""
import re
import statistics
import sys
import time

from bs4 import BeautifulSoup
import lxml.html

PAGE = re.compile(r"page-(\d+)\.html")
NUMBER = re.compile(r"\d+")


def chapter(title, links, image):
    number = NUMBER.search(title)
    if number is None or not links:
        return None
    name = title.split(":", 1)[1].strip() if ":" in title else title
    pages = [PAGE.search(href or "") for href in (links[0], links[-1])]
    if None in pages:
        return None
    return (int(number.group()), name, int(pages[0].group(1)), int(pages[1].group(1)), image)


def with_lxml(data):
    document = lxml.html.fromstring(data)
    chapters = []
    token = "contains(concat(' ', normalize-space(@class), ' '), ' {} ')"
    nodes = document.xpath("//h1 | //*[{} or {}]".format(token.format("cadrelect"), token.format("chapter")))
    in_section = False
    for node in nodes:
        if node.tag == "h1":
            in_section = "horscadrelect" in (node.get("class") or "").split()
            continue
        if not in_section:
            continue
        headings = node.xpath(".//h4")
        if not headings:
            continue
        title = " ".join(headings[0].text_content().split())
        images = node.xpath(".//img/@src")
        found = chapter(title, node.xpath(".//p//a/@href"), images[0] if images else "")
        if found:
            chapters.append(found)
    return chapters


def with_bs4(data):
    soup = BeautifulSoup(data, "html.parser")
    chapters = []
    for section in soup.select("h1.horscadrelect"):
        element = section.find_next_sibling()
        while element is not None and element.name != "h1":
            classes = element.get("class") or []
            if "cadrelect" in classes or "chapter" in classes:
                heading = element.find("h4")
                if heading is not None:
                    title = " ".join(heading.get_text().split())
                    links = [a.get("href") for a in element.select("p a")]
                    image = element.find("img")
                    found = chapter(title, links, image.get("src") if image else "")
                    if found:
                        chapters.append(found)
            element = element.find_next_sibling()
    return chapters


def measure(function, data, rounds):
    times = []
    result = None
    for _ in range(rounds):
        start = time.perf_counter()
        result = function(data)
        times.append(time.perf_counter() - start)
    return statistics.median(times), len(result)


def main():
    path, rounds = sys.argv[1], int(sys.argv[2])
    with open(path, "rb") as file:
        data = file.read()
    for name, function, count in (("lxml", with_lxml, rounds), ("bs4", with_bs4, max(5, rounds // 10))):
        seconds, chapters = measure(function, data, count)
        print(name, f"{seconds:.6f}", chapters)


if __name__ == "__main__":
    main()
