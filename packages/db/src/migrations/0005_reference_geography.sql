-- Reference geography for company addresses (spec: address countries at, ch, de, fr), names in the
-- country's own language. It feeds GET /core/countries, /core/countries/{id}/states and
-- /core/states/{id}/districts, each sorted by name.
--
-- Germany: the 16 Länder; districts are the 294 Landkreise (Kreise, Region Hannover, Städteregion Aachen,
--   Regionalverband Saarbrücken) and the kreisfreie Städte as of 2022 (Eisenach in the Wartburgkreis).
--   The city states Berlin and Hamburg list their Bezirke instead of the one city, as an address needs.
--   Where a Landkreis has the name of a kreisfreie Stadt of the same Land, it is written "X (Landkreis)".
-- Austria: the 9 Bundesländer; 79 Bezirke and 14 Statutarstädte; Wien lists its 23 Gemeindebezirke.
-- Switzerland: the 26 cantons; their districts (Bezirke, Verwaltungskreise, Wahlkreise, Regionen, districts,
--   distretti). Cantons without districts (Basel-Stadt, Genève, Glarus, Nidwalden, Obwalden, Uri, Zug,
--   Appenzell Innerrhoden) list their municipalities; Appenzell Ausserrhoden and Schaffhausen their former
--   districts; Neuchâtel its four regions.
-- France: the 13 metropolitan regions and their 96 départements.

INSERT INTO countries (code, name) VALUES
  ('AT', 'Österreich'), ('CH', 'Schweiz'), ('DE', 'Deutschland'), ('FR', 'France')
ON CONFLICT (code) DO NOTHING;

CREATE TEMPORARY TABLE reference_geography (country char(2), state text, districts text[]) ON COMMIT DROP;

INSERT INTO reference_geography VALUES
('DE', 'Baden-Württemberg', ARRAY[
  'Alb-Donau-Kreis', 'Baden-Baden', 'Biberach', 'Böblingen', 'Bodenseekreis', 'Breisgau-Hochschwarzwald',
  'Calw', 'Emmendingen', 'Enzkreis', 'Esslingen', 'Freiburg im Breisgau', 'Freudenstadt', 'Göppingen',
  'Heidelberg', 'Heidenheim', 'Heilbronn', 'Heilbronn (Landkreis)', 'Hohenlohekreis', 'Karlsruhe',
  'Karlsruhe (Landkreis)', 'Konstanz', 'Lörrach', 'Ludwigsburg', 'Main-Tauber-Kreis', 'Mannheim',
  'Neckar-Odenwald-Kreis', 'Ortenaukreis', 'Ostalbkreis', 'Pforzheim', 'Rastatt', 'Ravensburg',
  'Rems-Murr-Kreis', 'Reutlingen', 'Rhein-Neckar-Kreis', 'Rottweil', 'Schwäbisch Hall',
  'Schwarzwald-Baar-Kreis', 'Sigmaringen', 'Stuttgart', 'Tübingen', 'Tuttlingen', 'Ulm', 'Waldshut',
  'Zollernalbkreis']),
('DE', 'Bayern', ARRAY[
  -- Oberbayern
  'Altötting', 'Bad Tölz-Wolfratshausen', 'Berchtesgadener Land', 'Dachau', 'Ebersberg', 'Eichstätt',
  'Erding', 'Freising', 'Fürstenfeldbruck', 'Garmisch-Partenkirchen', 'Ingolstadt', 'Landsberg am Lech',
  'Miesbach', 'Mühldorf am Inn', 'München', 'München (Landkreis)', 'Neuburg-Schrobenhausen',
  'Pfaffenhofen an der Ilm', 'Rosenheim', 'Rosenheim (Landkreis)', 'Starnberg', 'Traunstein',
  'Weilheim-Schongau',
  -- Niederbayern
  'Deggendorf', 'Dingolfing-Landau', 'Freyung-Grafenau', 'Kelheim', 'Landshut', 'Landshut (Landkreis)',
  'Passau', 'Passau (Landkreis)', 'Regen', 'Rottal-Inn', 'Straubing', 'Straubing-Bogen',
  -- Oberpfalz
  'Amberg', 'Amberg-Sulzbach', 'Cham', 'Neumarkt in der Oberpfalz', 'Neustadt an der Waldnaab',
  'Regensburg', 'Regensburg (Landkreis)', 'Schwandorf', 'Tirschenreuth', 'Weiden in der Oberpfalz',
  -- Oberfranken
  'Bamberg', 'Bamberg (Landkreis)', 'Bayreuth', 'Bayreuth (Landkreis)', 'Coburg', 'Coburg (Landkreis)',
  'Forchheim', 'Hof', 'Hof (Landkreis)', 'Kronach', 'Kulmbach', 'Lichtenfels',
  'Wunsiedel im Fichtelgebirge',
  -- Mittelfranken
  'Ansbach', 'Ansbach (Landkreis)', 'Erlangen', 'Erlangen-Höchstadt', 'Fürth', 'Fürth (Landkreis)',
  'Neustadt an der Aisch-Bad Windsheim', 'Nürnberg', 'Nürnberger Land', 'Roth', 'Schwabach',
  'Weißenburg-Gunzenhausen',
  -- Unterfranken
  'Aschaffenburg', 'Aschaffenburg (Landkreis)', 'Bad Kissingen', 'Haßberge', 'Kitzingen', 'Main-Spessart',
  'Miltenberg', 'Rhön-Grabfeld', 'Schweinfurt', 'Schweinfurt (Landkreis)', 'Würzburg',
  'Würzburg (Landkreis)',
  -- Schwaben
  'Aichach-Friedberg', 'Augsburg', 'Augsburg (Landkreis)', 'Dillingen an der Donau', 'Donau-Ries',
  'Günzburg', 'Kaufbeuren', 'Kempten (Allgäu)', 'Lindau (Bodensee)', 'Memmingen', 'Neu-Ulm',
  'Oberallgäu', 'Ostallgäu', 'Unterallgäu']),
('DE', 'Berlin', ARRAY[
  'Charlottenburg-Wilmersdorf', 'Friedrichshain-Kreuzberg', 'Lichtenberg', 'Marzahn-Hellersdorf', 'Mitte',
  'Neukölln', 'Pankow', 'Reinickendorf', 'Spandau', 'Steglitz-Zehlendorf', 'Tempelhof-Schöneberg',
  'Treptow-Köpenick']),
('DE', 'Brandenburg', ARRAY[
  'Barnim', 'Brandenburg an der Havel', 'Cottbus', 'Dahme-Spreewald', 'Elbe-Elster', 'Frankfurt (Oder)',
  'Havelland', 'Märkisch-Oderland', 'Oberhavel', 'Oberspreewald-Lausitz', 'Oder-Spree',
  'Ostprignitz-Ruppin', 'Potsdam', 'Potsdam-Mittelmark', 'Prignitz', 'Spree-Neiße', 'Teltow-Fläming',
  'Uckermark']),
('DE', 'Bremen', ARRAY['Bremen', 'Bremerhaven']),
('DE', 'Hamburg', ARRAY[
  'Altona', 'Bergedorf', 'Eimsbüttel', 'Hamburg-Mitte', 'Hamburg-Nord', 'Harburg', 'Wandsbek']),
('DE', 'Hessen', ARRAY[
  'Bergstraße', 'Darmstadt', 'Darmstadt-Dieburg', 'Frankfurt am Main', 'Fulda', 'Gießen', 'Groß-Gerau',
  'Hersfeld-Rotenburg', 'Hochtaunuskreis', 'Kassel', 'Kassel (Landkreis)', 'Lahn-Dill-Kreis',
  'Limburg-Weilburg', 'Main-Kinzig-Kreis', 'Main-Taunus-Kreis', 'Marburg-Biedenkopf', 'Odenwaldkreis',
  'Offenbach (Landkreis)', 'Offenbach am Main', 'Rheingau-Taunus-Kreis', 'Schwalm-Eder-Kreis',
  'Vogelsbergkreis', 'Waldeck-Frankenberg', 'Werra-Meißner-Kreis', 'Wetteraukreis', 'Wiesbaden']),
('DE', 'Mecklenburg-Vorpommern', ARRAY[
  'Ludwigslust-Parchim', 'Mecklenburgische Seenplatte', 'Nordwestmecklenburg', 'Rostock',
  'Rostock (Landkreis)', 'Schwerin', 'Vorpommern-Greifswald', 'Vorpommern-Rügen']),
('DE', 'Niedersachsen', ARRAY[
  'Ammerland', 'Aurich', 'Braunschweig', 'Celle', 'Cloppenburg', 'Cuxhaven', 'Delmenhorst', 'Diepholz',
  'Emden', 'Emsland', 'Friesland', 'Gifhorn', 'Goslar', 'Göttingen', 'Grafschaft Bentheim',
  'Hameln-Pyrmont', 'Harburg', 'Heidekreis', 'Helmstedt', 'Hildesheim', 'Holzminden', 'Leer',
  'Lüchow-Dannenberg', 'Lüneburg', 'Nienburg/Weser', 'Northeim', 'Oldenburg (Landkreis)',
  'Oldenburg (Oldb)', 'Osnabrück', 'Osnabrück (Landkreis)', 'Osterholz', 'Peine', 'Region Hannover',
  'Rotenburg (Wümme)', 'Salzgitter', 'Schaumburg', 'Stade', 'Uelzen', 'Vechta', 'Verden', 'Wesermarsch',
  'Wilhelmshaven', 'Wittmund', 'Wolfenbüttel', 'Wolfsburg']),
('DE', 'Nordrhein-Westfalen', ARRAY[
  'Bielefeld', 'Bochum', 'Bonn', 'Borken', 'Bottrop', 'Coesfeld', 'Dortmund', 'Duisburg', 'Düren',
  'Düsseldorf', 'Ennepe-Ruhr-Kreis', 'Essen', 'Euskirchen', 'Gelsenkirchen', 'Gütersloh', 'Hagen', 'Hamm',
  'Heinsberg', 'Herford', 'Herne', 'Hochsauerlandkreis', 'Höxter', 'Kleve', 'Köln', 'Krefeld',
  'Leverkusen', 'Lippe', 'Märkischer Kreis', 'Mettmann', 'Minden-Lübbecke', 'Mönchengladbach',
  'Mülheim an der Ruhr', 'Münster', 'Oberbergischer Kreis', 'Oberhausen', 'Olpe', 'Paderborn',
  'Recklinghausen', 'Remscheid', 'Rhein-Erft-Kreis', 'Rhein-Kreis Neuss', 'Rhein-Sieg-Kreis',
  'Rheinisch-Bergischer Kreis', 'Siegen-Wittgenstein', 'Soest', 'Solingen', 'Städteregion Aachen',
  'Steinfurt', 'Unna', 'Viersen', 'Warendorf', 'Wesel', 'Wuppertal']),
('DE', 'Rheinland-Pfalz', ARRAY[
  'Ahrweiler', 'Altenkirchen (Westerwald)', 'Alzey-Worms', 'Bad Dürkheim', 'Bad Kreuznach',
  'Bernkastel-Wittlich', 'Birkenfeld', 'Cochem-Zell', 'Donnersbergkreis', 'Eifelkreis Bitburg-Prüm',
  'Frankenthal (Pfalz)', 'Germersheim', 'Kaiserslautern', 'Kaiserslautern (Landkreis)', 'Koblenz', 'Kusel',
  'Landau in der Pfalz', 'Ludwigshafen am Rhein', 'Mainz', 'Mainz-Bingen', 'Mayen-Koblenz',
  'Neustadt an der Weinstraße', 'Neuwied', 'Pirmasens', 'Rhein-Hunsrück-Kreis', 'Rhein-Lahn-Kreis',
  'Rhein-Pfalz-Kreis', 'Speyer', 'Südliche Weinstraße', 'Südwestpfalz', 'Trier', 'Trier-Saarburg',
  'Vulkaneifel', 'Westerwaldkreis', 'Worms', 'Zweibrücken']),
('DE', 'Saarland', ARRAY[
  'Merzig-Wadern', 'Neunkirchen', 'Regionalverband Saarbrücken', 'Saarlouis', 'Saarpfalz-Kreis',
  'St. Wendel']),
('DE', 'Sachsen', ARRAY[
  'Bautzen', 'Chemnitz', 'Dresden', 'Erzgebirgskreis', 'Görlitz', 'Leipzig', 'Leipzig (Landkreis)',
  'Meißen', 'Mittelsachsen', 'Nordsachsen', 'Sächsische Schweiz-Osterzgebirge', 'Vogtlandkreis', 'Zwickau']),
('DE', 'Sachsen-Anhalt', ARRAY[
  'Altmarkkreis Salzwedel', 'Anhalt-Bitterfeld', 'Börde', 'Burgenlandkreis', 'Dessau-Roßlau',
  'Halle (Saale)', 'Harz', 'Jerichower Land', 'Magdeburg', 'Mansfeld-Südharz', 'Saalekreis',
  'Salzlandkreis', 'Stendal', 'Wittenberg']),
('DE', 'Schleswig-Holstein', ARRAY[
  'Dithmarschen', 'Flensburg', 'Herzogtum Lauenburg', 'Kiel', 'Lübeck', 'Neumünster', 'Nordfriesland',
  'Ostholstein', 'Pinneberg', 'Plön', 'Rendsburg-Eckernförde', 'Schleswig-Flensburg', 'Segeberg',
  'Steinburg', 'Stormarn']),
('DE', 'Thüringen', ARRAY[
  'Altenburger Land', 'Eichsfeld', 'Erfurt', 'Gera', 'Gotha', 'Greiz', 'Hildburghausen', 'Ilm-Kreis',
  'Jena', 'Kyffhäuserkreis', 'Nordhausen', 'Saale-Holzland-Kreis', 'Saale-Orla-Kreis',
  'Saalfeld-Rudolstadt', 'Schmalkalden-Meiningen', 'Sömmerda', 'Sonneberg', 'Suhl', 'Unstrut-Hainich-Kreis',
  'Wartburgkreis', 'Weimar', 'Weimarer Land']),

('AT', 'Burgenland', ARRAY[
  'Eisenstadt', 'Eisenstadt-Umgebung', 'Güssing', 'Jennersdorf', 'Mattersburg', 'Neusiedl am See',
  'Oberpullendorf', 'Oberwart', 'Rust']),
('AT', 'Kärnten', ARRAY[
  'Feldkirchen', 'Hermagor', 'Klagenfurt am Wörthersee', 'Klagenfurt-Land', 'Sankt Veit an der Glan',
  'Spittal an der Drau', 'Villach', 'Villach-Land', 'Völkermarkt', 'Wolfsberg']),
('AT', 'Niederösterreich', ARRAY[
  'Amstetten', 'Baden', 'Bruck an der Leitha', 'Gänserndorf', 'Gmünd', 'Hollabrunn', 'Horn', 'Korneuburg',
  'Krems an der Donau', 'Krems-Land', 'Lilienfeld', 'Melk', 'Mistelbach', 'Mödling', 'Neunkirchen',
  'Sankt Pölten', 'Sankt Pölten-Land', 'Scheibbs', 'Tulln', 'Waidhofen an der Thaya',
  'Waidhofen an der Ybbs', 'Wiener Neustadt', 'Wiener Neustadt-Land', 'Zwettl']),
('AT', 'Oberösterreich', ARRAY[
  'Braunau am Inn', 'Eferding', 'Freistadt', 'Gmunden', 'Grieskirchen', 'Kirchdorf an der Krems', 'Linz',
  'Linz-Land', 'Perg', 'Ried im Innkreis', 'Rohrbach', 'Schärding', 'Steyr', 'Steyr-Land',
  'Urfahr-Umgebung', 'Vöcklabruck', 'Wels', 'Wels-Land']),
('AT', 'Salzburg', ARRAY[
  'Hallein', 'Salzburg', 'Salzburg-Umgebung', 'Sankt Johann im Pongau', 'Tamsweg', 'Zell am See']),
('AT', 'Steiermark', ARRAY[
  'Bruck-Mürzzuschlag', 'Deutschlandsberg', 'Graz', 'Graz-Umgebung', 'Hartberg-Fürstenfeld', 'Leibnitz',
  'Leoben', 'Liezen', 'Murau', 'Murtal', 'Südoststeiermark', 'Voitsberg', 'Weiz']),
('AT', 'Tirol', ARRAY[
  'Imst', 'Innsbruck', 'Innsbruck-Land', 'Kitzbühel', 'Kufstein', 'Landeck', 'Lienz', 'Reutte', 'Schwaz']),
('AT', 'Vorarlberg', ARRAY['Bludenz', 'Bregenz', 'Dornbirn', 'Feldkirch']),
('AT', 'Wien', ARRAY[
  'Alsergrund', 'Brigittenau', 'Döbling', 'Donaustadt', 'Favoriten', 'Floridsdorf', 'Hernals', 'Hietzing',
  'Innere Stadt', 'Josefstadt', 'Landstraße', 'Leopoldstadt', 'Liesing', 'Margareten', 'Mariahilf',
  'Meidling', 'Neubau', 'Ottakring', 'Penzing', 'Rudolfsheim-Fünfhaus', 'Simmering', 'Währing', 'Wieden']),

('CH', 'Aargau', ARRAY[
  'Aarau', 'Baden', 'Bremgarten', 'Brugg', 'Kulm', 'Laufenburg', 'Lenzburg', 'Muri', 'Rheinfelden',
  'Zofingen', 'Zurzach']),
('CH', 'Appenzell Ausserrhoden', ARRAY['Hinterland', 'Mittelland', 'Vorderland']),
('CH', 'Appenzell Innerrhoden', ARRAY['Appenzell', 'Gonten', 'Oberegg', 'Schlatt-Haslen', 'Schwende-Rüte']),
('CH', 'Basel-Landschaft', ARRAY['Arlesheim', 'Laufen', 'Liestal', 'Sissach', 'Waldenburg']),
('CH', 'Basel-Stadt', ARRAY['Basel', 'Bettingen', 'Riehen']),
('CH', 'Bern', ARRAY[
  'Bern-Mittelland', 'Berner Jura', 'Biel/Bienne', 'Emmental', 'Frutigen-Niedersimmental',
  'Interlaken-Oberhasli', 'Oberaargau', 'Obersimmental-Saanen', 'Seeland', 'Thun']),
('CH', 'Fribourg', ARRAY['Broye', 'Glâne', 'Gruyère', 'Lac', 'Sarine', 'Sense', 'Veveyse']),
('CH', 'Genève', ARRAY[
  'Aire-la-Ville', 'Anières', 'Avully', 'Avusy', 'Bardonnex', 'Bellevue', 'Bernex', 'Carouge', 'Cartigny',
  'Céligny', 'Chancy', 'Chêne-Bougeries', 'Chêne-Bourg', 'Choulex', 'Collex-Bossy', 'Collonge-Bellerive',
  'Cologny', 'Confignon', 'Corsier', 'Dardagny', 'Genève', 'Genthod', 'Gy', 'Hermance', 'Jussy',
  'Laconnex', 'Lancy', 'Le Grand-Saconnex', 'Meinier', 'Meyrin', 'Onex', 'Perly-Certoux',
  'Plan-les-Ouates', 'Pregny-Chambésy', 'Presinge', 'Puplinge', 'Russin', 'Satigny', 'Soral', 'Thônex',
  'Troinex', 'Vandœuvres', 'Vernier', 'Versoix', 'Veyrier']),
('CH', 'Glarus', ARRAY['Glarus', 'Glarus Nord', 'Glarus Süd']),
('CH', 'Graubünden', ARRAY[
  'Albula', 'Bernina', 'Engiadina Bassa/Val Müstair', 'Imboden', 'Landquart', 'Maloja', 'Moesa', 'Plessur',
  'Prättigau/Davos', 'Surselva', 'Viamala']),
('CH', 'Jura', ARRAY['Delémont', 'Franches-Montagnes', 'Porrentruy']),
('CH', 'Luzern', ARRAY['Entlebuch', 'Hochdorf', 'Luzern-Land', 'Luzern-Stadt', 'Sursee', 'Willisau']),
('CH', 'Neuchâtel', ARRAY['Littoral', 'Montagnes', 'Val-de-Ruz', 'Val-de-Travers']),
('CH', 'Nidwalden', ARRAY[
  'Beckenried', 'Buochs', 'Dallenwil', 'Emmetten', 'Ennetbürgen', 'Ennetmoos', 'Hergiswil', 'Oberdorf',
  'Stans', 'Stansstad', 'Wolfenschiessen']),
('CH', 'Obwalden', ARRAY['Alpnach', 'Engelberg', 'Giswil', 'Kerns', 'Lungern', 'Sachseln', 'Sarnen']),
('CH', 'Schaffhausen', ARRAY['Oberklettgau', 'Reiat', 'Schaffhausen', 'Schleitheim', 'Stein', 'Unterklettgau']),
('CH', 'Schwyz', ARRAY['Einsiedeln', 'Gersau', 'Höfe', 'Küssnacht', 'March', 'Schwyz']),
('CH', 'Solothurn', ARRAY[
  'Bucheggberg', 'Dorneck', 'Gäu', 'Gösgen', 'Lebern', 'Olten', 'Solothurn', 'Thal', 'Thierstein',
  'Wasseramt']),
('CH', 'St. Gallen', ARRAY[
  'Rheintal', 'Rorschach', 'Sarganserland', 'See-Gaster', 'St. Gallen', 'Toggenburg', 'Werdenberg', 'Wil']),
('CH', 'Thurgau', ARRAY['Arbon', 'Frauenfeld', 'Kreuzlingen', 'Münchwilen', 'Weinfelden']),
('CH', 'Ticino', ARRAY[
  'Bellinzona', 'Blenio', 'Leventina', 'Locarno', 'Lugano', 'Mendrisio', 'Riviera', 'Vallemaggia']),
('CH', 'Uri', ARRAY[
  'Altdorf', 'Andermatt', 'Attinghausen', 'Bürglen', 'Erstfeld', 'Flüelen', 'Göschenen', 'Gurtnellen',
  'Hospental', 'Isenthal', 'Realp', 'Schattdorf', 'Seedorf', 'Seelisberg', 'Silenen', 'Sisikon',
  'Spiringen', 'Unterschächen', 'Wassen']),
('CH', 'Valais', ARRAY[
  'Brig', 'Conthey', 'Entremont', 'Goms', 'Hérens', 'Leuk', 'Martigny', 'Monthey', 'Östlich Raron',
  'Saint-Maurice', 'Sierre', 'Sion', 'Visp', 'Westlich Raron']),
('CH', 'Vaud', ARRAY[
  'Aigle', 'Broye-Vully', 'Gros-de-Vaud', 'Jura-Nord vaudois', 'Lausanne', 'Lavaux-Oron', 'Morges', 'Nyon',
  'Ouest lausannois', 'Riviera-Pays-d''Enhaut']),
('CH', 'Zug', ARRAY[
  'Baar', 'Cham', 'Hünenberg', 'Menzingen', 'Neuheim', 'Oberägeri', 'Risch', 'Steinhausen', 'Unterägeri',
  'Walchwil', 'Zug']),
('CH', 'Zürich', ARRAY[
  'Affoltern', 'Andelfingen', 'Bülach', 'Dielsdorf', 'Dietikon', 'Hinwil', 'Horgen', 'Meilen', 'Pfäffikon',
  'Uster', 'Winterthur', 'Zürich']),

('FR', 'Auvergne-Rhône-Alpes', ARRAY[
  'Ain', 'Allier', 'Ardèche', 'Cantal', 'Drôme', 'Haute-Loire', 'Haute-Savoie', 'Isère', 'Loire',
  'Puy-de-Dôme', 'Rhône', 'Savoie']),
('FR', 'Bourgogne-Franche-Comté', ARRAY[
  'Côte-d''Or', 'Doubs', 'Haute-Saône', 'Jura', 'Nièvre', 'Saône-et-Loire', 'Territoire de Belfort', 'Yonne']),
('FR', 'Bretagne', ARRAY['Côtes-d''Armor', 'Finistère', 'Ille-et-Vilaine', 'Morbihan']),
('FR', 'Centre-Val de Loire', ARRAY['Cher', 'Eure-et-Loir', 'Indre', 'Indre-et-Loire', 'Loir-et-Cher', 'Loiret']),
('FR', 'Corse', ARRAY['Corse-du-Sud', 'Haute-Corse']),
('FR', 'Grand Est', ARRAY[
  'Ardennes', 'Aube', 'Bas-Rhin', 'Haut-Rhin', 'Haute-Marne', 'Marne', 'Meurthe-et-Moselle', 'Meuse',
  'Moselle', 'Vosges']),
('FR', 'Hauts-de-France', ARRAY['Aisne', 'Nord', 'Oise', 'Pas-de-Calais', 'Somme']),
('FR', 'Île-de-France', ARRAY[
  'Essonne', 'Hauts-de-Seine', 'Paris', 'Seine-et-Marne', 'Seine-Saint-Denis', 'Val-d''Oise', 'Val-de-Marne',
  'Yvelines']),
('FR', 'Normandie', ARRAY['Calvados', 'Eure', 'Manche', 'Orne', 'Seine-Maritime']),
('FR', 'Nouvelle-Aquitaine', ARRAY[
  'Charente', 'Charente-Maritime', 'Corrèze', 'Creuse', 'Deux-Sèvres', 'Dordogne', 'Gironde', 'Haute-Vienne',
  'Landes', 'Lot-et-Garonne', 'Pyrénées-Atlantiques', 'Vienne']),
('FR', 'Occitanie', ARRAY[
  'Ariège', 'Aude', 'Aveyron', 'Gard', 'Gers', 'Haute-Garonne', 'Hautes-Pyrénées', 'Hérault', 'Lot',
  'Lozère', 'Pyrénées-Orientales', 'Tarn', 'Tarn-et-Garonne']),
('FR', 'Pays de la Loire', ARRAY['Loire-Atlantique', 'Maine-et-Loire', 'Mayenne', 'Sarthe', 'Vendée']),
('FR', 'Provence-Alpes-Côte d''Azur', ARRAY[
  'Alpes-de-Haute-Provence', 'Alpes-Maritimes', 'Bouches-du-Rhône', 'Hautes-Alpes', 'Var', 'Vaucluse']);

INSERT INTO states (country_id, name)
SELECT c.id, g.state FROM reference_geography g JOIN countries c ON c.code = g.country
ON CONFLICT (country_id, name) DO NOTHING;

INSERT INTO districts (state_id, name)
SELECT s.id, d.name
FROM reference_geography g
JOIN countries c ON c.code = g.country
JOIN states s ON s.country_id = c.id AND s.name = g.state
CROSS JOIN LATERAL unnest(g.districts) AS d(name)
ON CONFLICT (state_id, name) DO NOTHING;
