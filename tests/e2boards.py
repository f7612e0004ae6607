"""Eternity II boards the tests score (a helper of the tests, not a test module)."""
from __future__ import annotations

#: Joshua Blackwood's 470/480 board (31 Mar 2021), as listed by the e2.bucas.name viewer
#: (jfbucas/eternityII-viewer, init.js, puzzle "Joshua_Blackwood_470"), in the viewer's
#: "jblackwood" colour order.
BLACKWOOD_470 = (
    "https://e2.bucas.name/#puzzle=Joshua_Blackwood_470&board_w=16&board_h=16&board_edges="
    "ajraaftjabvfafpbajefarcjablrajubafpjanefajmnabpjafebabifafsbaabfruratiouvvsiptuvewstcugwlwou"
    "uicwpdlieiidmocipctoelecigoesccgbabcrifaootisddoudmdsggdlddgopddcluplmwlimemicswttpcehutotvh"
    "cwetbajvftratuttdchumstcgvvsdwvvdwvwuhewwluhedvlsmsdptemupwtvvdcepemjarprijatdoihltdtmolvwom"
    "vcwwvcieesscuhssvtihshltetehwdltdhcdeighrarcjhjaoelhtileoliiosclwcssitpcscptscicilmclshlehhs"
    "lgvhcwvgppvwrafpjmbalhmmlluhimulcmimsggmpppgpmhpiovmmwpohsewhwqsvwiwvovwvqdofafqbgbamhtguqgh"
    "ucmqitecglstpeclhmsevlompgtlehvgqtohievtvpmedutpfafubhfatplhgiipmqgiemdqsdpmclidsgglodegtohd"
    "vohoocsovcucmgoctikgfafiflnalqpliluqghvlddwhpdqdikgdgepkewiehodwhccosugcuuouoegukwlefarwnqna"
    "pdhqutkdvkqtwedkqswegpgspuopihpudqchcueqgqkuousqgpmulswprarsncnahqvckwoqqwuwdmewwvdmgttvovmtp"
    "kivcslkepkskuupsqgumsgqwsdsrajsnhfavqwhogkqukvgeowkdesothqemklhimwklklmkqtkuikqgsuigtvsdvktja"
    "nvfdnawlqdkgqlvlqgwqklsuhqqvqulimvwkpiloektkuokdckuqkdvpuqkompnajongbaqhqgqmkhqkkmkwgkhoqwqvio"
    "mokvpmkoeqtmumiqcdhmkqedukwqmpkkjajpbraaqnarkjankbajgnabqbaninabkbankjabtnajiranhnarenanwrank"
    "rarjaar&motifs_order=jblackwood")
