//! The data behind [`super::guess`]: for each language it holds, the letters
//! of its alphabet and the 300 letter trigrams most frequent in its texts,
//! most frequent first, each three characters and closed by `|`.
//!
//! Both are whatlang 0.18.0's own (its Latin alphabets and its generated
//! trigram profiles, MIT licence, © Serhii Potapov and
//! contributors), copied unchanged for English and Portuguese: the
//! equivalence tests compare every guess with whatlang's, so a profile that
//! drifts from the crate's fails them.

use whatlang::Lang;

/// One language's letters and trigram profile.
pub struct Profile {
    pub lang: Lang,
    pub alphabet: &'static str,
    pub trigrams: &'static str,
}

/// The profiles held, in no particular order.
pub const ALL: [Profile; 2] = [ENG, POR];

/// Eng: its letters and its 300 most frequent trigrams, most frequent first.
pub const ENG: Profile = Profile {
    lang: Lang::Eng,
    alphabet: "abcdefghijklmnopqrstuvwxyz",
    trigrams: concat!(
        " th|the| an|he |nd |and|ion| of|of |tio| to|to |on | in|al |",
        "ati|igh|ght|rig| ri|or |ent|as |ed |is |ll |in | be|e r|ne |",
        "one|ver|all|s t|eve|t t| fr|s a| ha| re|ty |ery| or|d t| pr|",
        "ht | co| ev|e h|e a|ng |ts |his|ing|be |yon| sh|ce |ree|fre|",
        "ryo|n t|her|men|nat|sha|pro|nal|y a|has|es |for| hi|hal|f t|",
        "n a|n o|nt | pe|s o| fo|d i|nce|er |ons|res|e s|ect|ity|ly |",
        "l b|ry |e e|ers|e i|an |e o| de|cti|dom|edo|eed|hts|ter|ona|",
        "re | no| wh| a | un|d f| as|ny |l a|e p|ere| en| na| wi|nit|",
        "nte|d a|any|ted| di|ns |sta|th |per|ith|e t|st |e c|y t|om |",
        "soc| ar|ch |t o|d o|nti|s e|equ|ve |oci|man| fu|ote|oth|ess|",
        " al| ac|wit|ial| ma|uni| se|rea| so| on|lit|int|r t|y o|enc|",
        "thi|ual|t a| eq|tat|qua|ive| st|ali|e w|l o|are|f h|con|te |",
        "led| is|und|cia|e f|le | la|y i|uma|by | by|hum|f a|ic | hu|",
        "ave|ge |r a| wo|o a|ms |com| me|eas|s d|tec| li|n e|en |rat|",
        "tit|ple|whe|ate|o t|s r|t f|rot| ch|cie|dis|age|ary|o o|anc|",
        "eli|no | fa| su|son|inc|at |nda|hou|wor|t i|nde|rom|oms| ot|",
        "g t|eme|tle|iti|gni|s w|itl|duc|d w|whi|act|hic|aw |law| he|",
        "ich|min|imi|ort|o s|se |e b|ntr|tra|edu|oun|tan|e d|nst|l p|",
        "d n|ld |nta|s i|ble|n p| pu|n s| at|ily|rth|tho|ful|ssi|der|",
        "o e|cat|uca|unt|ien| ed|o p|h a|era|ind|pen|sec|n w|omm|r s|",
    ),
};

/// Por: its letters and its 300 most frequent trigrams, most frequent first.
pub const POR: Profile = Profile {
    lang: Lang::Por,
    alphabet: "abcdefghijklmnopqrstuvwxyzàáâãçéêíóôõú",
    trigrams: concat!(
        "os |de | de| a | e |o d|to |ão | di|ent|da |ito|em | co|eit|",
        "as |dir|es |ire|rei| se|ção|ade|a p|dad|e d|s d|men|nte|do |",
        "s e| pr| pe|dos| to| da|a a|o e| o |o a|ess|con|tod|que| qu|",
        "te |e a| do|al |res|ida|m d| in| ou|er |sso| na| re| po|a s|",
        " li|uma|cia|ar |pro|e e|a d| te|açã|a t| es| su|ou |ue |s p|",
        "tos|a e|des|ra |com|no |ame|ia |e p|tem|nto| pa|is |est|tra|",
        "ões|na |s o|oda|das|ser|soa|s n|pes|o p|s a|o s|e o| em| as|",
        " à |o o|ais|ber|ado|oa |o t|e s|man|sua|ua | no| os|a c|ter|",
        "çõe|erd|lib|rda|s s|nci|ibe|e n|ica|odo|so |nal|ntr|s t|hum|",
        "ura| ao|ona|ual| so|or |ma |sta|o c|a n|pre|ara|era|ons|e t|",
        "r a|par|o à| hu|ind|por|cio|ria|m a|s c| um|a l|gua|ran| en|",
        "ndi|o i|e c|raç|ion|nid|aci|ano|soc|e r|oci| ac|und|sen|nos|",
        "nsi|rec|ime|ali|int|um |per|nac| al|m o|r p| fu|ndo|ont|açõ|",
        " ig|igu|fun|nta| ma|uni|cçã|ere| ex|a i| me|ese|rio|l d|a o|",
        "s h|pel|ada|pri|ide|am |m p|pod|s f|ém |a f|io |ode|ca |ita|",
        "lid|tiv|e f|vid|r e|esp|nda|omo|e l|naç|o r|ant|a q|tad|lic|",
        "iva| fa|ver|s l|ial|cla|ngu|ing| ca|mo |der| vi|eli|ist|ta |",
        "se |ati|ios|ido|r o|eci|dis| un|e i|r d|ecç|o q|s i|qua|ênc|",
        "a m|seu|sti|nin|uer|rar|cas|aos|ens|gué|ias|sid|uém|tur|dam|",
        "sse|ao |ela|l e|for|tec|ote| pl|ena| tr|m c|tro| ni|ico|rot|",
    ),
};
